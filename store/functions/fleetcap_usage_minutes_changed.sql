-- usage_minute: pod minutes written (COPY, INSERT, upsert) or deleted make
-- their hours stale for the rollup (usage_hour_changes), and below the later
-- of the cluster's and the fleet's chargeback watermark mark them `late
-- telemetry`, as fleetcap_mark_recompute does. Only pod rows: the device's own
-- rows are neither rolled up into usage_hourly nor attributed. Any minute, a
-- device's or a pod's, makes its hour stale for the cluster's hourly usage
-- (usage_cluster_hour_changes, migration 0034). Transition tables on the
-- partitioned parent see the rows of every partition.
-- Minutes written make their hour due to be moved to rest
-- (usage_hours_to_compact, migration 0037), and a minute written again once
-- its hour is at rest takes the place of the one at rest, whose bit is
-- cleared: each minute is in one place. Only minutes more than an hour old
-- are looked for at rest (fleetcap_compact_usage_hour moves hours that ended
-- two hours ago and more). Moving minutes to rest changes none of them:
-- its delete (fleetcap.moving_minutes) marks nothing.
CREATE OR REPLACE FUNCTION fleetcap_usage_minutes_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('fleetcap.moving_minutes', true) = 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    UPDATE usage_series_hour h SET minutes = h.minutes & ~c.bits
      FROM (SELECT m.cluster, s.series_id, date_trunc('hour', m.minute, 'UTC') AS hour,
                   bit_or(1::bigint << (extract(epoch FROM m.minute - date_trunc('hour', m.minute, 'UTC')) / 60)::integer)
                     AS bits
              FROM changed_minutes m
              JOIN usage_series s ON s.cluster = m.cluster AND s.device_id = m.device_id AND s.pod_uid = m.pod_uid
             WHERE m.minute < now() - interval '1 hour' AND date_trunc('minute', m.minute, 'UTC') = m.minute
             GROUP BY 1, 2, 3) c
     WHERE h.cluster = c.cluster AND h.hour = c.hour AND h.series_id = c.series_id AND h.minutes & c.bits <> 0;
  END IF;
  WITH all_hours AS (
    SELECT cluster, date_trunc('hour', minute, 'UTC') AS hour, bool_or(pod_uid <> '') AS pods
      FROM changed_minutes GROUP BY 1, 2
  ), due AS (
    -- (after a delete too: moving an hour with nothing left costs a look)
    INSERT INTO usage_hours_to_compact (cluster, hour) SELECT cluster, hour FROM all_hours ON CONFLICT DO NOTHING
  ), cluster_stale AS (
    INSERT INTO usage_cluster_hour_changes (cluster, hour) SELECT cluster, hour FROM all_hours
  ), hours AS (
    SELECT cluster, hour FROM all_hours WHERE pods
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

CREATE OR REPLACE TRIGGER usage_minute_inserted AFTER INSERT ON usage_minute
  REFERENCING NEW TABLE AS changed_minutes FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_usage_minutes_changed();
CREATE OR REPLACE TRIGGER usage_minute_updated AFTER UPDATE ON usage_minute
  REFERENCING NEW TABLE AS changed_minutes FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_usage_minutes_changed();
CREATE OR REPLACE TRIGGER usage_minute_deleted AFTER DELETE ON usage_minute
  REFERENCING OLD TABLE AS changed_minutes FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_usage_minutes_changed();
