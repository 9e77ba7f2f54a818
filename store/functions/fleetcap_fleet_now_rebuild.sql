-- The fleet summary "now", kept (migration 0032): both tables filled from the facts.
-- Both tables again from the facts: every open device row with the held of
-- its device's open holds, and each cluster's latest start or end.
CREATE OR REPLACE FUNCTION fleetcap_fleet_now_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM fleet_now;
  DELETE FROM fleet_now_horizon;
  INSERT INTO fleet_now (cluster, model, devices, held_milli)
  SELECT d.cluster, d.model, count(*), coalesce(sum(h.milli), 0)
    FROM devices d
    LEFT JOIN (SELECT cluster, device_id, sum(milli) AS milli FROM holds WHERE held_to IS NULL
                GROUP BY cluster, device_id) h ON h.cluster = d.cluster AND h.device_id = d.device_id
   WHERE d.in_service_to IS NULL
   GROUP BY d.cluster, d.model;
  INSERT INTO fleet_now_horizon (cluster, horizon)
  SELECT cluster, max(instant) FROM (
    SELECT cluster, greatest(in_service_from, in_service_to) AS instant FROM devices
    UNION ALL
    SELECT cluster, greatest(held_from, held_to) FROM holds) AS rows
   GROUP BY cluster;
$$;
