-- Who holds devices "now", kept (migration 0033): a pods statement's change to holders_now.
-- Adds, per pod row given with its namespace and team, n rows (n < 0:
-- removed): n times what the pod's open holds hold, once per open row of
-- each device. Rows that net to nothing (an update that kept the pod's
-- namespace and team) read no hold.
CREATE OR REPLACE FUNCTION fleetcap_holders_now_add_pods(clusters text[], pod_uids text[], namespaces text[],
                                                         teams text[], ns bigint[]) RETURNS void LANGUAGE sql AS $$
  SELECT fleetcap_holders_now_add(array_agg(p.cluster), array_agg(p.namespace), array_agg(p.team),
                                  array_agg(p.n * h.milli * d.n))
    FROM (SELECT cluster, pod_uid, namespace, team, sum(n)::bigint AS n
            FROM unnest(clusters, pod_uids, namespaces, teams, ns) AS c(cluster, pod_uid, namespace, team, n)
           GROUP BY cluster, pod_uid, namespace, team HAVING sum(n) <> 0) p
    JOIN holds h ON h.cluster = p.cluster AND h.pod_uid = p.pod_uid AND h.held_to IS NULL
    CROSS JOIN LATERAL (SELECT count(*) AS n FROM devices
                         WHERE devices.cluster = h.cluster AND devices.device_id = h.device_id
                           AND devices.in_service_to IS NULL) d
   WHERE d.n > 0
$$;
