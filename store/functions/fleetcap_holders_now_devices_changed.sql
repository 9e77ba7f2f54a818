-- Who holds devices "now", kept (migration 0033; fleetcap_holders_now_holds_changed.sql):
-- a devices statement's change to holders_now.
CREATE OR REPLACE FUNCTION fleetcap_holders_now_devices_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM fleetcap_holders_now_add_devices(array_agg(cluster), array_agg(device_id), array_agg(1::bigint))
       FROM new_devices WHERE in_service_to IS NULL;
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM fleetcap_holders_now_add_devices(array_agg(cluster), array_agg(device_id), array_agg(n))
       FROM (SELECT cluster, device_id, -1::bigint AS n FROM old_devices WHERE in_service_to IS NULL
             UNION ALL
             SELECT cluster, device_id, 1::bigint FROM new_devices WHERE in_service_to IS NULL) AS c;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM fleetcap_holders_now_add_devices(array_agg(cluster), array_agg(device_id), array_agg(-1::bigint))
       FROM old_devices WHERE in_service_to IS NULL;
  ELSE
    PERFORM fleetcap_holders_now_rebuild();
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER holders_now_devices_inserted AFTER INSERT ON devices
  REFERENCING NEW TABLE AS new_devices FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_holders_now_devices_changed();
CREATE OR REPLACE TRIGGER holders_now_devices_updated AFTER UPDATE ON devices
  REFERENCING OLD TABLE AS old_devices NEW TABLE AS new_devices
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_holders_now_devices_changed();
CREATE OR REPLACE TRIGGER holders_now_devices_deleted AFTER DELETE ON devices
  REFERENCING OLD TABLE AS old_devices FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_holders_now_devices_changed();
CREATE OR REPLACE TRIGGER holders_now_devices_truncated AFTER TRUNCATE ON devices
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_holders_now_devices_changed();
