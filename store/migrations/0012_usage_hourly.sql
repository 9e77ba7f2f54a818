-- Hourly usage rollups and change marks (docs/attribution.md, "Chargeback tables").
--
-- The optimizer reads a pod's use of a device one hour at a time: one row per
-- (cluster, hour, pod, device) keeps the hour's sixty per-minute readings, so
-- the engine's minute-by-minute rules stay exact while it reads 60x fewer rows
-- than usage_minute. Statement-level triggers keep track of what changed:
-- which hours have minutes not rolled up yet, and which hours behind the
-- fleet's chargeback watermark must be computed again.

-- used_milli[i] is what the pod used of the device in minute i-1 of the hour,
-- in milli-devices: util_mean x 1000 rounded half away from zero, exactly as
-- store::UsedMilli computes it (-1 for a reading that is no number or past
-- 1e6, which the engine rejects; a value past smallint is saturated, which
-- the engine rejects the same way). NULL: no reading that minute.
CREATE TABLE usage_hourly (
  cluster     text NOT NULL,
  hour        timestamptz NOT NULL CHECK (date_trunc('hour', hour, 'UTC') = hour),
  pod_uid     text NOT NULL CHECK (pod_uid <> ''),
  device_id   text NOT NULL,
  used_milli  smallint[] NOT NULL CHECK (array_length(used_milli, 1) = 60 AND array_lower(used_milli, 1) = 1),
  PRIMARY KEY (cluster, hour, pod_uid, device_id)
);

-- Hours with pod minutes written since they were last rolled up: one row per
-- writing statement and hour, deleted by the rollup of that hour. An append
-- log, not one row per hour kept up to date, so concurrent writers of one
-- hour never wait for each other's row lock; and a writer still uncommitted
-- when the rollup runs leaves its row behind, so its minutes are rolled up
-- next time.
CREATE TABLE usage_hour_changes (
  cluster     text NOT NULL,
  hour        timestamptz NOT NULL,
  changed_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX usage_hour_changes_by_hour ON usage_hour_changes (cluster, hour);

-- Every hour with minutes already stored has never been rolled up.
INSERT INTO usage_hour_changes (cluster, hour)
SELECT DISTINCT cluster, date_trunc('hour', minute, 'UTC') FROM usage_minute WHERE pod_uid <> '';

-- util_mean as store::UsedMilli's milli-devices, saturated to smallint.
-- round() of a float8 breaks ties to even; llround() away from zero, so ties
-- (the fraction of a float8 is exact) are rounded here by hand.
CREATE FUNCTION fleetcap_used_milli(util_mean double precision) RETURNS smallint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT least(greatest(CASE
      WHEN NOT (abs(util_mean) <= 1e6) THEN -1
      WHEN abs(util_mean * 1000 - trunc(util_mean * 1000)) = 0.5 THEN trunc(util_mean * 1000) + sign(util_mean)
      ELSE round(util_mean * 1000) END, -32768), 32767)::smallint
$$;

-- Sixty readings from (minute of the hour, value) pairs; NULL where none.
CREATE FUNCTION fleetcap_minute_readings(minutes integer[], used smallint[]) RETURNS smallint[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  readings smallint[] := array_fill(NULL::smallint, ARRAY[60]);
BEGIN
  FOR i IN 1..coalesce(array_length(minutes, 1), 0) LOOP
    readings[minutes[i] + 1] := used[i];
  END LOOP;
  RETURN readings;
END $$;

-- Marks `reason` on every hour of `cluster` that `spans` touch before the
-- fleet's chargeback watermark (cluster ''); an hour marked already keeps its
-- first reason. Nothing without a watermark.
CREATE FUNCTION fleetcap_mark_recompute(cluster_name text, spans tstzmultirange, mark_reason text) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO chargeback_recompute (cluster, hour, reason)
  SELECT DISTINCT cluster_name, h.hour, mark_reason
    FROM chargeback_watermarks w,
         unnest(spans * tstzmultirange(tstzrange(NULL, w.through))) r,
         generate_series(date_trunc('hour', lower(r), 'UTC'), upper(r) - interval '1 microsecond',
                         interval '1 hour') h(hour)
   WHERE w.cluster = '' AND NOT isempty(r)
  ON CONFLICT (cluster, hour) DO NOTHING
$$;

-- The span of [a1, b1) and [a2, b2) that only one of them covers, as two
-- ranges (NULL ends are open): what changing one interval into the other
-- touched.
CREATE FUNCTION fleetcap_changed_spans(a1 timestamptz, b1 timestamptz, a2 timestamptz, b2 timestamptz)
RETURNS tstzmultirange LANGUAGE sql IMMUTABLE AS $$
  SELECT (tstzmultirange(tstzrange(a1, b1)) - tstzmultirange(tstzrange(a2, b2)))
       + (tstzmultirange(tstzrange(a2, b2)) - tstzmultirange(tstzrange(a1, b1)))
$$;

-- usage_minute: pod minutes written (COPY, INSERT, upsert) or deleted make
-- their hours stale, and below the watermark mark them `late telemetry`. Only
-- pod rows: the device's own rows are neither rolled up nor attributed.
-- Transition tables on the partitioned parent see the rows of every partition.
CREATE FUNCTION fleetcap_usage_minutes_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  watermark timestamptz;
BEGIN
  SELECT w.through INTO watermark FROM chargeback_watermarks w WHERE w.cluster = '';
  WITH hours AS (
    SELECT DISTINCT cluster, date_trunc('hour', minute, 'UTC') AS hour FROM changed_minutes WHERE pod_uid <> ''
  ), stale AS (
    INSERT INTO usage_hour_changes (cluster, hour) SELECT cluster, hour FROM hours
  )
  INSERT INTO chargeback_recompute (cluster, hour, reason)
  SELECT cluster, hour, 'late telemetry' FROM hours WHERE hour < watermark
  ON CONFLICT (cluster, hour) DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER usage_minute_inserted AFTER INSERT ON usage_minute
  REFERENCING NEW TABLE AS changed_minutes FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_usage_minutes_changed();
CREATE TRIGGER usage_minute_updated AFTER UPDATE ON usage_minute
  REFERENCING NEW TABLE AS changed_minutes FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_usage_minutes_changed();
CREATE TRIGGER usage_minute_deleted AFTER DELETE ON usage_minute
  REFERENCING OLD TABLE AS changed_minutes FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_usage_minutes_changed();

-- Inventory corrections: a device's service period, a hold, or a pod's
-- namespace, team label or workload changed where it covers computed hours.
-- Inserted and deleted rows touch their whole interval; an updated row the
-- span between its old and new interval, or all of both when what the facts
-- read of it changed too. Each trigger returns at once without a watermark.

CREATE FUNCTION fleetcap_devices_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM chargeback_watermarks WHERE cluster = '') THEN RETURN NULL; END IF;
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

CREATE TRIGGER devices_inserted AFTER INSERT ON devices
  REFERENCING NEW TABLE AS new_devices FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_devices_changed();
CREATE TRIGGER devices_updated AFTER UPDATE ON devices
  REFERENCING OLD TABLE AS old_devices NEW TABLE AS new_devices
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_devices_changed();
CREATE TRIGGER devices_deleted AFTER DELETE ON devices
  REFERENCING OLD TABLE AS old_devices FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_devices_changed();

CREATE FUNCTION fleetcap_holds_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM chargeback_watermarks WHERE cluster = '') THEN RETURN NULL; END IF;
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

CREATE TRIGGER holds_inserted AFTER INSERT ON holds
  REFERENCING NEW TABLE AS new_holds FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_holds_changed();
CREATE TRIGGER holds_updated AFTER UPDATE ON holds
  REFERENCING OLD TABLE AS old_holds NEW TABLE AS new_holds FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_holds_changed();
CREATE TRIGGER holds_deleted AFTER DELETE ON holds
  REFERENCING OLD TABLE AS old_holds FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_holds_changed();

-- A pod is read only through its holds (namespace, own team label, top
-- controller): a pod inserted or deleted, or one of those changed, touches
-- the hours of its holds. Its phase, deletion time and the rest do not.
CREATE FUNCTION fleetcap_mark_pods_holds(clusters text[], pod_uids text[]) RETURNS void
LANGUAGE sql AS $$
  SELECT fleetcap_mark_recompute(h.cluster, range_agg(tstzrange(h.held_from, h.held_to)), 'corrected inventory')
    FROM unnest(clusters, pod_uids) p(cluster, pod_uid)
    JOIN holds h ON h.cluster = p.cluster AND h.pod_uid = p.pod_uid
   GROUP BY h.cluster
$$;

CREATE FUNCTION fleetcap_pods_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM chargeback_watermarks WHERE cluster = '') THEN RETURN NULL; END IF;
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

CREATE TRIGGER pods_inserted AFTER INSERT ON pods
  REFERENCING NEW TABLE AS new_pods FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_pods_changed();
CREATE TRIGGER pods_updated AFTER UPDATE ON pods
  REFERENCING OLD TABLE AS old_pods NEW TABLE AS new_pods FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_pods_changed();
CREATE TRIGGER pods_deleted AFTER DELETE ON pods
  REFERENCING OLD TABLE AS old_pods FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_pods_changed();
