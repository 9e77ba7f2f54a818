-- The optimizer shares its work by cluster (docs/scaling.md, "The optimizer
-- shares work by cluster"): each cluster's lines advance under the cluster's
-- own watermark, and the fleet's watermark (cluster '') follows the slowest
-- cluster, for the `fixed` lines spread over every cluster's teams. A change
-- to a cluster's facts is now marked below the later of the two: every hour
-- of that cluster computed so far. (The fleet's alone missed the hours a
-- cluster had computed ahead of the slowest one.) The triggers of 0012 call
-- these functions, so replacing them is all it takes; the ones that returned
-- at once without a fleet watermark now return without any watermark.

-- Marks `reason` on every hour of `cluster` that `spans` touch before the
-- later of its own and the fleet's watermark; an hour marked already keeps its
-- first reason. Nothing without a watermark.
CREATE OR REPLACE FUNCTION fleetcap_mark_recompute(cluster_name text, spans tstzmultirange, mark_reason text) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO chargeback_recompute (cluster, hour, reason)
  SELECT DISTINCT cluster_name, h.hour, mark_reason
    FROM (SELECT max(through) AS through FROM chargeback_watermarks WHERE cluster IN ('', cluster_name)) w,
         unnest(spans * tstzmultirange(tstzrange(NULL, w.through))) r,
         generate_series(date_trunc('hour', lower(r), 'UTC'), upper(r) - interval '1 microsecond',
                         interval '1 hour') h(hour)
   WHERE w.through IS NOT NULL AND NOT isempty(r)
  ON CONFLICT (cluster, hour) DO NOTHING
$$;

-- Pod minutes written or deleted: stale for the rollup, and `late telemetry`
-- below the cluster's watermark.
CREATE OR REPLACE FUNCTION fleetcap_usage_minutes_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH hours AS (
    SELECT DISTINCT cluster, date_trunc('hour', minute, 'UTC') AS hour FROM changed_minutes WHERE pod_uid <> ''
  ), stale AS (
    INSERT INTO usage_hour_changes (cluster, hour) SELECT cluster, hour FROM hours
  )
  INSERT INTO chargeback_recompute (cluster, hour, reason)
  SELECT h.cluster, h.hour, 'late telemetry' FROM hours h
   WHERE h.hour < (SELECT max(w.through) FROM chargeback_watermarks w WHERE w.cluster IN ('', h.cluster))
  ON CONFLICT (cluster, hour) DO NOTHING;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION fleetcap_devices_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM chargeback_watermarks) THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    PERFORM fleetcap_mark_recompute(cluster, range_agg(tstzrange(in_service_from, in_service_to)), 'corrected inventory')
       FROM new_devices GROUP BY cluster;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM fleetcap_mark_recompute(cluster, range_agg(tstzrange(in_service_from, in_service_to)), 'corrected inventory')
       FROM old_devices GROUP BY cluster;
  ELSE
    PERFORM fleetcap_mark_recompute(c.cluster, range_agg(c.span), 'corrected inventory')
       FROM (SELECT coalesce(n.cluster, o.cluster) AS cluster, s.span
               FROM old_devices o
               FULL JOIN new_devices n USING (cluster, device_id, in_service_from)
               CROSS JOIN LATERAL unnest(CASE
                 WHEN o.cluster IS NULL THEN tstzmultirange(tstzrange(n.in_service_from, n.in_service_to))
                 WHEN n.cluster IS NULL THEN tstzmultirange(tstzrange(o.in_service_from, o.in_service_to))
                 WHEN (o.node, o.model) IS DISTINCT FROM (n.node, n.model)
                   THEN tstzmultirange(tstzrange(o.in_service_from, o.in_service_to),
                                       tstzrange(n.in_service_from, n.in_service_to))
                 ELSE fleetcap_changed_spans(o.in_service_from, o.in_service_to, n.in_service_from, n.in_service_to)
               END) s(span)) c
      GROUP BY c.cluster;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION fleetcap_holds_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM chargeback_watermarks) THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    PERFORM fleetcap_mark_recompute(cluster, range_agg(tstzrange(held_from, held_to)), 'corrected inventory')
       FROM new_holds GROUP BY cluster;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM fleetcap_mark_recompute(cluster, range_agg(tstzrange(held_from, held_to)), 'corrected inventory')
       FROM old_holds GROUP BY cluster;
  ELSE
    PERFORM fleetcap_mark_recompute(c.cluster, range_agg(c.span), 'corrected inventory')
       FROM (SELECT coalesce(n.cluster, o.cluster) AS cluster, s.span
               FROM old_holds o
               FULL JOIN new_holds n USING (cluster, pod_uid, device_id, held_from)
               CROSS JOIN LATERAL unnest(CASE
                 WHEN o.cluster IS NULL THEN tstzmultirange(tstzrange(n.held_from, n.held_to))
                 WHEN n.cluster IS NULL THEN tstzmultirange(tstzrange(o.held_from, o.held_to))
                 WHEN o.milli <> n.milli
                   THEN tstzmultirange(tstzrange(o.held_from, o.held_to), tstzrange(n.held_from, n.held_to))
                 ELSE fleetcap_changed_spans(o.held_from, o.held_to, n.held_from, n.held_to)
               END) s(span)) c
      GROUP BY c.cluster;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION fleetcap_pods_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM chargeback_watermarks) THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    PERFORM fleetcap_mark_pods_holds(array_agg(cluster), array_agg(pod_uid)) FROM new_pods;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM fleetcap_mark_pods_holds(array_agg(cluster), array_agg(pod_uid)) FROM old_pods;
  ELSE
    PERFORM fleetcap_mark_pods_holds(array_agg(coalesce(n.cluster, o.cluster)), array_agg(coalesce(n.pod_uid, o.pod_uid)))
       FROM old_pods o FULL JOIN new_pods n USING (cluster, pod_uid)
      WHERE (o.namespace, o.team, o.workload_kind, o.workload_name)
            IS DISTINCT FROM (n.namespace, n.team, n.workload_kind, n.workload_name);
  END IF;
  RETURN NULL;
END $$;
