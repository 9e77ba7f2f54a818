-- Recompute marks are leased, not taken (docs/attribution.md, "Recompute").
-- A pass used to delete the marks it took before recomputing their hours,
-- so an optimizer killed in between lost them and the hours kept their old
-- lines. Now a pass leases its marks: `taken_by` (the instance) holds them
-- until `taken_until`, and `lease` counts the leases of the row, so the
-- holder of an older lease can no longer touch it. The holder removes a mark
-- only after the recomputed hours are stored, and only if the hour was not
-- marked again meanwhile: `generation` counts the marks that arrived while
-- the row was leased. A lease that runs out (its holder died) leaves the mark
-- for the next pass of any instance.
ALTER TABLE chargeback_recompute
  ADD COLUMN generation  bigint NOT NULL DEFAULT 0,
  ADD COLUMN lease       bigint NOT NULL DEFAULT 0,
  ADD COLUMN taken_by    text,
  ADD COLUMN taken_until timestamptz;

-- Marking a leased hour again bumps its generation: the facts changed after
-- the holder read them, so its completion must leave the mark pending. An
-- unleased mark stays as it is (first reason, no write): such hours are left
-- out before the insert, since ON CONFLICT DO UPDATE locks every conflicting
-- row, and a lock per marked hour would make concurrent writers of an hour
-- wait for each other. The hours go in by hour, so that two statements that
-- do lock rows lock them in one order and never deadlock.
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
     AND NOT EXISTS (SELECT 1 FROM chargeback_recompute m
                      WHERE m.cluster = h.cluster AND m.hour = h.hour AND m.taken_until IS NULL)
   ORDER BY h.cluster, h.hour
  ON CONFLICT (cluster, hour) DO UPDATE SET generation = chargeback_recompute.generation + 1
   WHERE chargeback_recompute.taken_until IS NOT NULL;
  RETURN NULL;
END $$;
