-- The fleet summary "now", kept (migration 0032): a devices statement's change to fleet_now.
-- Adds, per (cluster, device_id, model) given, n open device rows (n < 0:
-- removed) with the held of the device's open holds.
CREATE OR REPLACE FUNCTION fleetcap_fleet_now_add_devices(clusters text[], device_ids text[], models text[],
                                                          ns bigint[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO fleet_now AS f (cluster, model, devices, held_milli)
  SELECT d.cluster, d.model, sum(d.n), sum(d.n * coalesce(h.milli, 0))
    FROM unnest(clusters, device_ids, models, ns) AS d(cluster, device_id, model, n)
    LEFT JOIN LATERAL (SELECT sum(milli) AS milli FROM holds
                        WHERE holds.cluster = d.cluster AND holds.device_id = d.device_id
                          AND holds.held_to IS NULL) h ON true
   GROUP BY d.cluster, d.model
  HAVING sum(d.n) <> 0 OR sum(d.n * coalesce(h.milli, 0)) <> 0
   ORDER BY d.cluster, d.model
  ON CONFLICT (cluster, model) DO UPDATE
    SET devices = f.devices + EXCLUDED.devices, held_milli = f.held_milli + EXCLUDED.held_milli
$$;
