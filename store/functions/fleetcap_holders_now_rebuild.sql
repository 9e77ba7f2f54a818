-- Who holds devices "now", kept (migration 0033): holders_now filled from the facts.
-- Every open hold on an open row of its device, by its pod's namespace and
-- team label.
CREATE OR REPLACE FUNCTION fleetcap_holders_now_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM holders_now;
  INSERT INTO holders_now (cluster, namespace, team, held_milli)
  SELECT h.cluster, p.namespace, p.team, sum(h.milli)
    FROM holds h
    JOIN devices d ON d.cluster = h.cluster AND d.device_id = h.device_id AND d.in_service_to IS NULL
    JOIN pods p ON p.cluster = h.cluster AND p.pod_uid = h.pod_uid
   WHERE h.held_to IS NULL
   GROUP BY h.cluster, p.namespace, p.team;
$$;
