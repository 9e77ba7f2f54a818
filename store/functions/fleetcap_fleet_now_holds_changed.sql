-- The fleet summary "now", kept (migration 0032; fleetcap_fleet_now_devices_changed.sql):
-- a holds statement's change to fleet_now and fleet_now_horizon.
CREATE OR REPLACE FUNCTION fleetcap_fleet_now_holds_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM fleetcap_fleet_now_reach(array_agg(cluster), array_agg(greatest(held_from, held_to))) FROM new_holds;
    PERFORM fleetcap_fleet_now_add_holds(array_agg(cluster), array_agg(device_id), array_agg(milli::bigint))
       FROM new_holds WHERE held_to IS NULL;
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM fleetcap_fleet_now_reach(array_agg(cluster), array_agg(greatest(held_from, held_to))) FROM new_holds;
    PERFORM fleetcap_fleet_now_add_holds(array_agg(cluster), array_agg(device_id), array_agg(milli))
       FROM (SELECT cluster, device_id, -milli::bigint AS milli FROM old_holds WHERE held_to IS NULL
             UNION ALL
             SELECT cluster, device_id, milli::bigint FROM new_holds WHERE held_to IS NULL) AS c;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM fleetcap_fleet_now_add_holds(array_agg(cluster), array_agg(device_id), array_agg(-milli::bigint))
       FROM old_holds WHERE held_to IS NULL;
  ELSE
    PERFORM fleetcap_fleet_now_rebuild();
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER fleet_now_holds_inserted AFTER INSERT ON holds
  REFERENCING NEW TABLE AS new_holds FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_fleet_now_holds_changed();
CREATE OR REPLACE TRIGGER fleet_now_holds_updated AFTER UPDATE ON holds
  REFERENCING OLD TABLE AS old_holds NEW TABLE AS new_holds
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_fleet_now_holds_changed();
CREATE OR REPLACE TRIGGER fleet_now_holds_deleted AFTER DELETE ON holds
  REFERENCING OLD TABLE AS old_holds FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_fleet_now_holds_changed();
CREATE OR REPLACE TRIGGER fleet_now_holds_truncated AFTER TRUNCATE ON holds
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_fleet_now_holds_changed();
