-- Marks `mark_reason` on every hour of `cluster_name` that `spans` touch
-- before the later of its own and the fleet's chargeback watermark (cluster
-- ''); nothing without a watermark. An hour marked and not leased keeps its
-- first reason and is left out before the insert, since ON CONFLICT DO UPDATE
-- locks every conflicting row and a lock per marked hour would make
-- concurrent writers of an hour wait for each other. Marking a leased hour
-- again bumps its generation: the facts changed after the holder read them,
-- so its completion must leave the mark pending (docs/attribution.md,
-- "Recompute"). The hours go in by hour, so that two statements that do lock
-- rows lock them in one order and never deadlock.
CREATE OR REPLACE FUNCTION fleetcap_mark_recompute(cluster_name text, spans tstzmultirange, mark_reason text) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO chargeback_recompute (cluster, hour, reason)
  SELECT DISTINCT cluster_name, h.hour, mark_reason
    FROM (SELECT max(through) AS through FROM chargeback_watermarks WHERE cluster IN ('', cluster_name)) w,
         unnest(spans * tstzmultirange(tstzrange(NULL, w.through))) r,
         generate_series(date_trunc('hour', lower(r), 'UTC'), upper(r) - interval '1 microsecond',
                         interval '1 hour') h(hour)
   WHERE w.through IS NOT NULL AND NOT isempty(r)
     AND NOT EXISTS (SELECT 1 FROM chargeback_recompute m
                      WHERE m.cluster = cluster_name AND m.hour = h.hour AND m.taken_until IS NULL)
   ORDER BY 2
  ON CONFLICT (cluster, hour) DO UPDATE SET generation = chargeback_recompute.generation + 1
   WHERE chargeback_recompute.taken_until IS NOT NULL
$$;
