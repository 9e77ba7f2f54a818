-- The fleet summary "now", kept (migration 0032): fleet_now per (cluster,
-- model), the open device rows and the milli-devices their open holds hold;
-- fleet_now_horizon per cluster, the latest start or end any row written
-- names. Statement triggers on devices and holds keep both in the
-- transaction that writes the facts, from the rows each statement changed:
--   a devices statement takes each open row it removed (updated or deleted)
--   out of its model, with what the open holds on that device hold, and
--   puts each open row it left in, likewise (holds do not change meanwhile);
--   a holds statement sums, per device, the open holds it added less those
--   it removed, and adds that to the model of each open row of the device.
-- fleetcap_fleet_now_rebuild fills both from the facts when applied.

-- A devices statement's change to fleet_now and fleet_now_horizon.
CREATE OR REPLACE FUNCTION fleetcap_fleet_now_devices_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM fleetcap_fleet_now_reach(array_agg(cluster), array_agg(greatest(in_service_from, in_service_to)))
       FROM new_devices;
    PERFORM fleetcap_fleet_now_add_devices(array_agg(cluster), array_agg(device_id), array_agg(model),
                                           array_agg(1::bigint))
       FROM new_devices WHERE in_service_to IS NULL;
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM fleetcap_fleet_now_reach(array_agg(cluster), array_agg(greatest(in_service_from, in_service_to)))
       FROM new_devices;
    PERFORM fleetcap_fleet_now_add_devices(array_agg(cluster), array_agg(device_id), array_agg(model), array_agg(n))
       FROM (SELECT cluster, device_id, model, -1::bigint AS n FROM old_devices WHERE in_service_to IS NULL
             UNION ALL
             SELECT cluster, device_id, model, 1::bigint FROM new_devices WHERE in_service_to IS NULL) AS c;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM fleetcap_fleet_now_add_devices(array_agg(cluster), array_agg(device_id), array_agg(model),
                                           array_agg(-1::bigint))
       FROM old_devices WHERE in_service_to IS NULL;
  ELSE
    PERFORM fleetcap_fleet_now_rebuild();
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER fleet_now_devices_inserted AFTER INSERT ON devices
  REFERENCING NEW TABLE AS new_devices FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_fleet_now_devices_changed();
CREATE OR REPLACE TRIGGER fleet_now_devices_updated AFTER UPDATE ON devices
  REFERENCING OLD TABLE AS old_devices NEW TABLE AS new_devices
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_fleet_now_devices_changed();
CREATE OR REPLACE TRIGGER fleet_now_devices_deleted AFTER DELETE ON devices
  REFERENCING OLD TABLE AS old_devices FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_fleet_now_devices_changed();
CREATE OR REPLACE TRIGGER fleet_now_devices_truncated AFTER TRUNCATE ON devices
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_fleet_now_devices_changed();
