-- The fleet summary "now", kept (migration 0032): a holds statement's change to fleet_now.
-- Adds, per (cluster, device_id) given, milli held by open holds (< 0:
-- released) to the model of each open row of the device.
CREATE OR REPLACE FUNCTION fleetcap_fleet_now_add_holds(clusters text[], device_ids text[], millis bigint[])
  RETURNS void LANGUAGE sql AS $$
  INSERT INTO fleet_now AS f (cluster, model, devices, held_milli)
  SELECT d.cluster, d.model, 0, sum(h.milli)
    FROM (SELECT cluster, device_id, sum(milli) AS milli
            FROM unnest(clusters, device_ids, millis) AS c(cluster, device_id, milli)
           GROUP BY cluster, device_id HAVING sum(milli) <> 0) h
    JOIN devices d ON d.cluster = h.cluster AND d.device_id = h.device_id AND d.in_service_to IS NULL
   GROUP BY d.cluster, d.model
   ORDER BY d.cluster, d.model
  ON CONFLICT (cluster, model) DO UPDATE SET held_milli = f.held_milli + EXCLUDED.held_milli
$$;
