-- A TRUNCATE of holds, devices or pods changes every instant of every
-- cluster: every summary checkpoint (migration 0036) is forgotten. No
-- builder is reading then: TRUNCATE waits for every reader of the table.
CREATE OR REPLACE FUNCTION fleetcap_forget_all_checkpoints() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM instant_checkpoints;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER holds_truncated_checkpoints AFTER TRUNCATE ON holds
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_forget_all_checkpoints();
CREATE OR REPLACE TRIGGER devices_truncated_checkpoints AFTER TRUNCATE ON devices
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_forget_all_checkpoints();
CREATE OR REPLACE TRIGGER pods_truncated_checkpoints AFTER TRUNCATE ON pods
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_forget_all_checkpoints();
