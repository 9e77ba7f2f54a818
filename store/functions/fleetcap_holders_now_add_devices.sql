-- Who holds devices "now", kept (migration 0033): a devices statement's change to holders_now.
-- Adds, per (cluster, device_id) given, n open device rows (n < 0: removed):
-- n times what each open hold on the device holds, under its pod's namespace
-- and team.
CREATE OR REPLACE FUNCTION fleetcap_holders_now_add_devices(clusters text[], device_ids text[], ns bigint[])
  RETURNS void LANGUAGE sql AS $$
  SELECT fleetcap_holders_now_add(array_agg(h.cluster), array_agg(p.namespace), array_agg(p.team),
                                  array_agg(d.n * h.milli))
    FROM (SELECT cluster, device_id, sum(n)::bigint AS n
            FROM unnest(clusters, device_ids, ns) AS c(cluster, device_id, n)
           GROUP BY cluster, device_id HAVING sum(n) <> 0) d
    JOIN holds h ON h.cluster = d.cluster AND h.device_id = d.device_id AND h.held_to IS NULL
    JOIN pods p ON p.cluster = h.cluster AND p.pod_uid = h.pod_uid
$$;
