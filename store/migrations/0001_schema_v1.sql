-- Schema v1: the whole domain model of DESIGN.md.
-- Quantities are integer milli-devices, money integer micro-units, time UTC
-- (timestamptz). Intervals are half-open [from, to); an open interval has
-- to = NULL. The cluster leads the key of every large table.

CREATE TABLE clusters (
  cluster     text PRIMARY KEY CHECK (cluster <> ''),
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE accelerator_types (
  model          text PRIMARY KEY CHECK (model <> ''),
  vendor         text NOT NULL CHECK (vendor IN ('nvidia', 'google', 'amd', 'unknown')),
  resource_name  text NOT NULL CHECK (resource_name <> '')
);

CREATE TABLE nodes (
  cluster          text NOT NULL REFERENCES clusters ON DELETE CASCADE,
  node             text NOT NULL,
  pool             text NOT NULL DEFAULT '',
  cpu_milli        bigint NOT NULL DEFAULT 0 CHECK (cpu_milli >= 0),
  memory_mib       bigint NOT NULL DEFAULT 0 CHECK (memory_mib >= 0),
  in_service_from  timestamptz NOT NULL,
  in_service_to    timestamptz CHECK (in_service_to IS NULL OR in_service_to >= in_service_from),
  PRIMARY KEY (cluster, node, in_service_from)
);

-- One row per period a device was in service on a node.
CREATE TABLE devices (
  cluster          text NOT NULL REFERENCES clusters ON DELETE CASCADE,
  device_id        text NOT NULL,
  node             text NOT NULL,
  device_index     integer NOT NULL CHECK (device_index >= 0),
  model            text NOT NULL REFERENCES accelerator_types,
  in_service_from  timestamptz NOT NULL,
  in_service_to    timestamptz CHECK (in_service_to IS NULL OR in_service_to >= in_service_from),
  PRIMARY KEY (cluster, device_id, in_service_from)
);
CREATE INDEX devices_in_service ON devices (cluster, in_service_from, in_service_to);

-- The top controller that owns pods (Deployment, Job, ..., or the bare Pod).
CREATE TABLE workloads (
  cluster    text NOT NULL REFERENCES clusters ON DELETE CASCADE,
  namespace  text NOT NULL,
  kind       text NOT NULL,
  name       text NOT NULL,
  team       text NOT NULL,
  PRIMARY KEY (cluster, namespace, kind, name)
);

CREATE TABLE pods (
  cluster          text NOT NULL REFERENCES clusters ON DELETE CASCADE,
  pod_uid          text NOT NULL,
  namespace        text NOT NULL,
  name             text NOT NULL,
  team             text NOT NULL,
  workload_kind    text NOT NULL,
  workload_name    text NOT NULL,
  phase            text NOT NULL DEFAULT '',
  created_at       timestamptz NOT NULL,
  scheduled_at     timestamptz,
  deleted_at       timestamptz,
  requested_milli  bigint NOT NULL DEFAULT 0 CHECK (requested_milli >= 0),
  unplaced         boolean NOT NULL DEFAULT false,
  PRIMARY KEY (cluster, pod_uid)
);
CREATE INDEX pods_by_team ON pods (cluster, team);

-- Which pod held how many milli-devices of which device, and when.
CREATE TABLE holds (
  cluster    text NOT NULL REFERENCES clusters ON DELETE CASCADE,
  pod_uid    text NOT NULL,
  device_id  text NOT NULL,
  milli      integer NOT NULL CHECK (milli > 0 AND milli <= 1000),
  held_from  timestamptz NOT NULL,
  held_to    timestamptz CHECK (held_to IS NULL OR held_to >= held_from),
  PRIMARY KEY (cluster, pod_uid, device_id, held_from)
);
CREATE INDEX holds_by_time ON holds (cluster, held_from, held_to);
CREATE INDEX holds_by_device ON holds (cluster, device_id, held_from);

-- Per-minute accelerator usage, per device (pod_uid = '') and per
-- pod-on-device. Partitioned by day; see fleetcap_maintain_usage_partitions.
CREATE TABLE usage_minute (
  cluster           text NOT NULL,
  device_id         text NOT NULL,
  pod_uid           text NOT NULL DEFAULT '',
  minute            timestamptz NOT NULL,
  util_mean         double precision,
  util_max          double precision,
  memory_used_bytes bigint,
  power_watts       double precision,
  energy_joules     double precision,
  samples           integer NOT NULL CHECK (samples > 0),
  PRIMARY KEY (cluster, device_id, pod_uid, minute)
) PARTITION BY RANGE (minute);

-- Creates the daily partitions of usage_minute from today through
-- `days_ahead` days ahead, and drops those that ended more than
-- `retention_days` ago. Idempotent. Returns the partitions created + dropped.
CREATE FUNCTION fleetcap_maintain_usage_partitions(
    now_utc timestamptz, days_ahead integer, retention_days integer)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  today   date := (now_utc AT TIME ZONE 'UTC')::date;
  day     date;
  changed integer := 0;
  part    record;
  part_end date;
BEGIN
  IF days_ahead < 0 OR retention_days < 1 THEN
    RAISE EXCEPTION 'days_ahead must be >= 0 and retention_days >= 1 (got %, %)',
      days_ahead, retention_days;
  END IF;
  FOR i IN 0..days_ahead LOOP
    day := today + i;
    IF to_regclass(format('usage_minute_%s', to_char(day, 'YYYYMMDD'))) IS NULL THEN
      EXECUTE format(
        'CREATE TABLE %I PARTITION OF usage_minute FOR VALUES FROM (%L) TO (%L)',
        format('usage_minute_%s', to_char(day, 'YYYYMMDD')),
        (day::timestamp AT TIME ZONE 'UTC'), ((day + 1)::timestamp AT TIME ZONE 'UTC'));
      changed := changed + 1;
    END IF;
  END LOOP;
  FOR part IN
    SELECT c.relname FROM pg_inherits i
      JOIN pg_class c ON c.oid = i.inhrelid
      JOIN pg_class p ON p.oid = i.inhparent
     WHERE p.relname = 'usage_minute' AND c.relname ~ '^usage_minute_[0-9]{8}$'
  LOOP
    part_end := to_date(substring(part.relname from 14), 'YYYYMMDD') + 1;
    IF part_end <= today - retention_days THEN
      EXECUTE format('DROP TABLE %I', part.relname);
      changed := changed + 1;
    END IF;
  END LOOP;
  RETURN changed;
END $$;

-- The org tree: orgs, teams and projects, any depth.
CREATE TABLE teams (
  team         text PRIMARY KEY CHECK (team <> ''),
  parent       text REFERENCES teams ON DELETE RESTRICT,
  kind         text NOT NULL DEFAULT 'team' CHECK (kind IN ('org', 'team', 'project')),
  weight       integer NOT NULL DEFAULT 1 CHECK (weight > 0),
  cost_centre  text NOT NULL DEFAULT '',
  CHECK (parent IS NULL OR parent <> team)
);
INSERT INTO teams (team, kind) VALUES ('unassigned', 'team');

-- Namespace to team, per cluster ('*' matches every cluster).
CREATE TABLE namespace_teams (
  cluster    text NOT NULL,
  namespace  text NOT NULL,
  team       text NOT NULL REFERENCES teams ON DELETE CASCADE,
  PRIMARY KEY (cluster, namespace)
);

-- Effective-dated price of one device-hour, by model and optionally cluster
-- ('' = every cluster), in micro-units of `currency`.
CREATE TABLE prices (
  model                  text NOT NULL REFERENCES accelerator_types,
  cluster                text NOT NULL DEFAULT '',
  effective_from         timestamptz NOT NULL,
  effective_to           timestamptz CHECK (effective_to IS NULL OR effective_to > effective_from),
  micro_per_device_hour  bigint NOT NULL CHECK (micro_per_device_hour >= 0),
  currency               text NOT NULL DEFAULT 'USD' CHECK (currency ~ '^[A-Z]{3}$'),
  PRIMARY KEY (model, cluster, effective_from)
);

-- Hourly chargeback lines: teams, `idle`, `unassigned` and shared costs.
CREATE TABLE chargeback_hourly (
  cluster              text NOT NULL,
  hour                 timestamptz NOT NULL CHECK (date_trunc('hour', hour) = hour),
  team                 text NOT NULL,
  model                text NOT NULL,
  line_kind            text NOT NULL CHECK (line_kind IN ('team', 'idle', 'unassigned', 'shared')),
  held_milli_seconds   bigint NOT NULL DEFAULT 0,
  used_milli_seconds   bigint NOT NULL DEFAULT 0,
  cost_micro           bigint NOT NULL,
  PRIMARY KEY (cluster, hour, team, model, line_kind)
);

-- One optimizer run's recommendations, per team and flavor.
CREATE TABLE allocation_runs (
  run_id          bigserial PRIMARY KEY,
  computed_at     timestamptz NOT NULL DEFAULT now(),
  policy_version  integer
);
CREATE TABLE allocation_recommendations (
  run_id                 bigint NOT NULL REFERENCES allocation_runs ON DELETE CASCADE,
  team                   text NOT NULL,
  flavor                 text NOT NULL,
  nominal_milli          bigint NOT NULL CHECK (nominal_milli >= 0),
  borrowing_limit_milli  bigint CHECK (borrowing_limit_milli >= 0),
  lending_limit_milli    bigint CHECK (lending_limit_milli >= 0),
  expected_share         double precision NOT NULL,
  explanation            text NOT NULL DEFAULT '',
  PRIMARY KEY (run_id, team, flavor)
);

-- Policy documents, one row per applied version.
CREATE TABLE policies (
  version     integer PRIMARY KEY CHECK (version > 0),
  document    text NOT NULL,
  applied_at  timestamptz NOT NULL DEFAULT now(),
  applied_by  text NOT NULL,
  message     text NOT NULL DEFAULT ''
);

-- API tokens, stored only as a hash of the secret.
CREATE TABLE api_tokens (
  token_id     text PRIMARY KEY,
  secret_hash  bytea NOT NULL UNIQUE,
  role         text NOT NULL CHECK (role IN ('admin', 'planner', 'scheduler') OR role LIKE 'team:%'),
  description  text NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  revoked_at   timestamptz
);

CREATE TABLE audit_log (
  id       bigserial PRIMARY KEY,
  at       timestamptz NOT NULL DEFAULT now(),
  actor    text NOT NULL,
  action   text NOT NULL,
  target   text NOT NULL DEFAULT '',
  details  jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_by_time ON audit_log (at);
