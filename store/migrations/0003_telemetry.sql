-- Telemetry ingest (Prometheus pull and remote_write push).
--
-- Raw canonical samples are kept for a short while so that every minute
-- row can be recomputed from them: a retried remote_write request, a
-- restart mid-stream or a re-ingested window adds no sample twice (the
-- primary key), and a late sample updates its minute instead of counting
-- twice.

-- One canonical series: a device (or a pod's share of it) and one field.
CREATE TABLE telemetry_series (
  series_id  bigserial PRIMARY KEY,
  cluster    text NOT NULL,
  device_id  text NOT NULL CHECK (device_id <> ''),
  namespace  text NOT NULL DEFAULT '',
  pod        text NOT NULL DEFAULT '',
  field      text NOT NULL CHECK (field <> ''),
  -- Resolved once, when the series is first seen: the inventory's pod uid
  -- (or namespace/pod when the inventory does not know the pod), node, model.
  pod_uid    text NOT NULL DEFAULT '',
  node       text NOT NULL DEFAULT '',
  model      text NOT NULL DEFAULT '',
  UNIQUE (cluster, device_id, namespace, pod, field)
);
CREATE INDEX telemetry_series_by_device ON telemetry_series (cluster, device_id);

-- Samples in Unix milliseconds, as Prometheus keeps them.
CREATE TABLE telemetry_samples (
  series_id  bigint NOT NULL REFERENCES telemetry_series ON DELETE CASCADE,
  ts_ms      bigint NOT NULL,
  value      double precision NOT NULL,
  PRIMARY KEY (series_id, ts_ms)
);

-- The pull client's progress: minutes before `through` are fetched and
-- closed (outside the settle window), per cluster and metric.
CREATE TABLE telemetry_watermarks (
  cluster     text NOT NULL,
  metric      text NOT NULL,
  through     timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (cluster, metric)
);

-- usage_minute gains what GetUsage filters and reports on.
ALTER TABLE usage_minute
  ADD COLUMN node                text NOT NULL DEFAULT '',
  ADD COLUMN model               text NOT NULL DEFAULT '',
  ADD COLUMN namespace           text NOT NULL DEFAULT '',
  ADD COLUMN pod                 text NOT NULL DEFAULT '',
  ADD COLUMN memory_total_bytes  bigint,
  ADD COLUMN sm_active_mean      double precision,
  ADD COLUMN tensor_active_mean  double precision,
  ADD COLUMN dram_active_mean    double precision;

-- Telemetry may carry minutes from any day (a backfill, a replay): the
-- writer creates the day's partition on demand.
CREATE FUNCTION fleetcap_ensure_usage_partition(day date) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  IF to_regclass(format('usage_minute_%s', to_char(day, 'YYYYMMDD'))) IS NOT NULL THEN
    RETURN false;
  END IF;
  EXECUTE format(
    'CREATE TABLE %I PARTITION OF usage_minute FOR VALUES FROM (%L) TO (%L)',
    format('usage_minute_%s', to_char(day, 'YYYYMMDD')),
    (day::timestamp AT TIME ZONE 'UTC'), ((day + 1)::timestamp AT TIME ZONE 'UTC'));
  RETURN true;
END $$;
