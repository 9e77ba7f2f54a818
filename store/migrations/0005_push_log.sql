-- remote_write keeps its samples in a local, fsync'd log and its open
-- minutes in memory (ingest/telemetry/sample_log.h, minute_window.h); a
-- minute reaches usage_minute once, when it closes. The raw-sample table
-- goes, and what a restart needs takes its place.
DROP TABLE telemetry_samples;

-- Per device: minutes before closed_through_ms are written; a sample for
-- one of them is late.
CREATE TABLE telemetry_push_devices (
  cluster            text NOT NULL,
  device_id          text NOT NULL,
  closed_through_ms  bigint NOT NULL,
  PRIMARY KEY (cluster, device_id)
);

-- A counter's last sample before its device's closed_through_ms: the next
-- minute's increase starts from it.
CREATE TABLE telemetry_push_counters (
  cluster    text NOT NULL,
  device_id  text NOT NULL,
  namespace  text NOT NULL,
  pod        text NOT NULL,
  field      text NOT NULL,
  ts_ms      bigint NOT NULL,
  value      double precision NOT NULL,
  PRIMARY KEY (cluster, device_id, namespace, pod, field)
);

-- Where to replay the sample log from after a restart; a checkpoint of
-- another log (the log directory was replaced) is void.
CREATE TABLE telemetry_push_checkpoints (
  cluster     text PRIMARY KEY,
  log_id      text NOT NULL,
  position    bigint NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);
