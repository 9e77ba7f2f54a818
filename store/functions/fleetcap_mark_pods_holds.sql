-- A pod is read only through its holds (namespace, own team label, top
-- controller): a pod inserted or deleted, or one of those changed, touches
-- the hours of its holds. Its phase, deletion time and the rest do not.
CREATE OR REPLACE FUNCTION fleetcap_mark_pods_holds(clusters text[], pod_uids text[]) RETURNS void
LANGUAGE sql AS $$
  SELECT fleetcap_inventory_corrected(h.cluster, range_agg(tstzrange(h.held_from, h.held_to)))
    FROM unnest(clusters, pod_uids) p(cluster, pod_uid)
    JOIN holds h ON h.cluster = p.cluster AND h.pod_uid = p.pod_uid
   GROUP BY h.cluster
$$;
