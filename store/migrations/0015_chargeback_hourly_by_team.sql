-- chargeback_hourly without namespace and workload, as
-- chargeback_daily_by_team is chargeback_daily without them: a window that
-- does not start or end on a day boundary (the last 30 days, from now) reads
-- its ragged hours here, a few hundred rows an hour instead of every
-- workload's line, and so does a report by hour that names no namespace or
-- workload. ReplaceHours rebuilds it from chargeback_hourly in the same
-- transaction, for the same hours, and chargeback_daily_by_team from it.
CREATE TABLE chargeback_hourly_by_team (
  cluster             text NOT NULL,
  hour                timestamptz NOT NULL CHECK (date_trunc('hour', hour, 'UTC') = hour),
  team                text NOT NULL,
  model               text NOT NULL,
  line_kind           text NOT NULL,
  held_milli_seconds  bigint NOT NULL,
  used_milli_seconds  bigint NOT NULL,
  direct_cost_micro   bigint NOT NULL,
  idle_cost_micro     bigint NOT NULL,
  shared_cost_micro   bigint NOT NULL,
  total_cost_micro    bigint NOT NULL,
  no_telemetry        boolean NOT NULL,
  PRIMARY KEY (cluster, hour, team, model, line_kind)
);

-- The hours of a window across every cluster: the primary key leads with the cluster.
CREATE INDEX chargeback_hourly_by_team_by_hour ON chargeback_hourly_by_team (hour);

-- Filled from the hourly lines already there.
INSERT INTO chargeback_hourly_by_team (cluster, hour, team, model, line_kind, held_milli_seconds, used_milli_seconds,
                                       direct_cost_micro, idle_cost_micro, shared_cost_micro, total_cost_micro,
                                       no_telemetry)
SELECT cluster, hour, team, model, line_kind, sum(held_milli_seconds), sum(used_milli_seconds), sum(direct_cost_micro),
       sum(idle_cost_micro), sum(shared_cost_micro), sum(total_cost_micro), bool_or(no_telemetry)
FROM chargeback_hourly GROUP BY 1, 2, 3, 4, 5;
