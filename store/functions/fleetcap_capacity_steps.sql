-- capacity_steps (migration 0031) kept in the statement that writes the
-- devices: +1 at each inserted service period's start and -1 at its end,
-- the opposite for a deleted one, both for an updated one (its old period
-- out, its new one in). The steps of one statement are summed first and
-- written in key order, so two writers lock shared steps in the same order.
CREATE OR REPLACE FUNCTION fleetcap_capacity_steps() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO capacity_steps AS s (cluster, model, at, devices)
    SELECT cluster, model, at, sum(d) FROM (
      SELECT cluster, model, in_service_from AS at, 1 AS d FROM new_devices
      UNION ALL SELECT cluster, model, in_service_to, -1 FROM new_devices WHERE in_service_to IS NOT NULL) e
     GROUP BY 1, 2, 3 HAVING sum(d) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (cluster, model, at) DO UPDATE SET devices = s.devices + EXCLUDED.devices;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO capacity_steps AS s (cluster, model, at, devices)
    SELECT cluster, model, at, sum(d) FROM (
      SELECT cluster, model, in_service_from AS at, -1 AS d FROM old_devices
      UNION ALL SELECT cluster, model, in_service_to, 1 FROM old_devices WHERE in_service_to IS NOT NULL) e
     GROUP BY 1, 2, 3 HAVING sum(d) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (cluster, model, at) DO UPDATE SET devices = s.devices + EXCLUDED.devices;
  ELSE
    INSERT INTO capacity_steps AS s (cluster, model, at, devices)
    SELECT cluster, model, at, sum(d) FROM (
      SELECT cluster, model, in_service_from AS at, 1 AS d FROM new_devices
      UNION ALL SELECT cluster, model, in_service_to, -1 FROM new_devices WHERE in_service_to IS NOT NULL
      UNION ALL SELECT cluster, model, in_service_from, -1 FROM old_devices
      UNION ALL SELECT cluster, model, in_service_to, 1 FROM old_devices WHERE in_service_to IS NOT NULL) e
     GROUP BY 1, 2, 3 HAVING sum(d) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (cluster, model, at) DO UPDATE SET devices = s.devices + EXCLUDED.devices;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER capacity_steps_inserted AFTER INSERT ON devices
  REFERENCING NEW TABLE AS new_devices FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_capacity_steps();
CREATE OR REPLACE TRIGGER capacity_steps_updated AFTER UPDATE ON devices
  REFERENCING OLD TABLE AS old_devices NEW TABLE AS new_devices
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_capacity_steps();
CREATE OR REPLACE TRIGGER capacity_steps_deleted AFTER DELETE ON devices
  REFERENCING OLD TABLE AS old_devices FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_capacity_steps();
