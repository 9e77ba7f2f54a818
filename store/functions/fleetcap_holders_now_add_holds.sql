-- Who holds devices "now", kept (migration 0033): a holds statement's change to holders_now.
-- Adds, per (cluster, device_id, pod_uid) given, milli held by open holds
-- (< 0: released), once per open row of the device, under the namespace and
-- team of the pod's row (none while it has none).
CREATE OR REPLACE FUNCTION fleetcap_holders_now_add_holds(clusters text[], device_ids text[], pod_uids text[],
                                                          millis bigint[]) RETURNS void LANGUAGE sql AS $$
  SELECT fleetcap_holders_now_add(array_agg(h.cluster), array_agg(p.namespace), array_agg(p.team),
                                  array_agg(h.milli * d.n))
    FROM (SELECT cluster, device_id, pod_uid, sum(milli)::bigint AS milli
            FROM unnest(clusters, device_ids, pod_uids, millis) AS c(cluster, device_id, pod_uid, milli)
           GROUP BY cluster, device_id, pod_uid HAVING sum(milli) <> 0) h
    JOIN pods p ON p.cluster = h.cluster AND p.pod_uid = h.pod_uid
    CROSS JOIN LATERAL (SELECT count(*) AS n FROM devices
                         WHERE devices.cluster = h.cluster AND devices.device_id = h.device_id
                           AND devices.in_service_to IS NULL) d
   WHERE d.n > 0
$$;
