-- Chargeback: the attribution engine's hourly lines, their daily and monthly
-- rollups, the optimizer's progress, and the over-held devices it reported.
-- Money is int64 micro-units, device time int64 milli-device-seconds. The
-- cluster leads every key; `fixed` lines (fixed monthly costs) have cluster ''.

-- Schema v1's chargeback_hourly was never written; the engine's lines have
-- more keys (namespace, workload) and split the cost.
DROP TABLE chargeback_hourly;

CREATE TABLE chargeback_hourly (
  cluster             text NOT NULL,
  hour                timestamptz NOT NULL CHECK (date_trunc('hour', hour, 'UTC') = hour),
  team                text NOT NULL,
  namespace           text NOT NULL,
  workload            text NOT NULL,
  model               text NOT NULL,
  line_kind           text NOT NULL CHECK (line_kind IN ('workload', 'idle', 'shared', 'fixed')),
  held_milli_seconds  bigint NOT NULL,
  used_milli_seconds  bigint NOT NULL,
  direct_cost_micro   bigint NOT NULL,
  idle_cost_micro     bigint NOT NULL,
  shared_cost_micro   bigint NOT NULL,
  total_cost_micro    bigint NOT NULL,
  no_telemetry        boolean NOT NULL DEFAULT false,
  computed_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (cluster, hour, team, namespace, workload, model, line_kind)
);

-- The same lines summed per UTC day and per UTC month (`day`, `month`: the
-- period's start). The writer rebuilds the periods of the hours it replaces
-- in the same transaction, so they always equal the sum of their hours.
CREATE TABLE chargeback_daily (
  cluster             text NOT NULL,
  day                 timestamptz NOT NULL CHECK (date_trunc('day', day, 'UTC') = day),
  team                text NOT NULL,
  namespace           text NOT NULL,
  workload            text NOT NULL,
  model               text NOT NULL,
  line_kind           text NOT NULL,
  held_milli_seconds  bigint NOT NULL,
  used_milli_seconds  bigint NOT NULL,
  direct_cost_micro   bigint NOT NULL,
  idle_cost_micro     bigint NOT NULL,
  shared_cost_micro   bigint NOT NULL,
  total_cost_micro    bigint NOT NULL,
  no_telemetry        boolean NOT NULL,
  PRIMARY KEY (cluster, day, team, namespace, workload, model, line_kind)
);

CREATE TABLE chargeback_monthly (
  cluster             text NOT NULL,
  month               timestamptz NOT NULL CHECK (date_trunc('month', month, 'UTC') = month),
  team                text NOT NULL,
  namespace           text NOT NULL,
  workload            text NOT NULL,
  model               text NOT NULL,
  line_kind           text NOT NULL,
  held_milli_seconds  bigint NOT NULL,
  used_milli_seconds  bigint NOT NULL,
  direct_cost_micro   bigint NOT NULL,
  idle_cost_micro     bigint NOT NULL,
  shared_cost_micro   bigint NOT NULL,
  total_cost_micro    bigint NOT NULL,
  no_telemetry        boolean NOT NULL,
  PRIMARY KEY (cluster, month, team, namespace, workload, model, line_kind)
);

-- The optimizer's progress: per cluster, every hour before `through` is computed.
CREATE TABLE chargeback_watermarks (
  cluster     text PRIMARY KEY,
  through     timestamptz NOT NULL CHECK (date_trunc('hour', through, 'UTC') = through),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- Hours whose facts changed after they were computed (late telemetry, a
-- corrected inventory, a new price or policy version), to compute again.
CREATE TABLE chargeback_recompute (
  cluster   text NOT NULL,
  hour      timestamptz NOT NULL CHECK (date_trunc('hour', hour, 'UTC') = hour),
  reason    text NOT NULL,
  noted_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (cluster, hour)
);

-- Devices whose holds added up past the whole device over [held_from,
-- held_to), with the pods that made it up, by the hour the span starts in.
CREATE TABLE chargeback_over_held (
  cluster     text NOT NULL,
  hour        timestamptz NOT NULL CHECK (date_trunc('hour', hour, 'UTC') = hour),
  device_id   text NOT NULL,
  held_from   timestamptz NOT NULL,
  held_to     timestamptz NOT NULL CHECK (held_to > held_from),
  held_milli  bigint NOT NULL,
  pod_uids    text[] NOT NULL,
  PRIMARY KEY (cluster, hour, device_id, held_from)
);

-- The attribution facts of a window near the present are the holds that end
-- after its start (or are open); holds_by_time, led by held_from, would scan
-- every older hold to find them.
CREATE INDEX holds_by_end ON holds (cluster, (coalesce(held_to, 'infinity'::timestamptz)));
