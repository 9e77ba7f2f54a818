-- chargeback_daily without namespace and workload: a month of a whole fleet
-- grouped by team (or cluster, model, line kind) sums a few thousand rows
-- here instead of every workload's daily row. ReplaceHours rebuilds it from
-- chargeback_daily in the same transaction, for the same days; Lines reads
-- it when neither the grouping nor the filters name a namespace or workload.
CREATE TABLE chargeback_daily_by_team (
  cluster             text NOT NULL,
  day                 timestamptz NOT NULL CHECK (date_trunc('day', day, 'UTC') = day),
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
  PRIMARY KEY (cluster, day, team, model, line_kind)
);

-- Filled from the daily rollup already there.
INSERT INTO chargeback_daily_by_team (cluster, day, team, model, line_kind, held_milli_seconds, used_milli_seconds,
                                      direct_cost_micro, idle_cost_micro, shared_cost_micro, total_cost_micro,
                                      no_telemetry)
SELECT cluster, day, team, model, line_kind, sum(held_milli_seconds), sum(used_milli_seconds), sum(direct_cost_micro),
       sum(idle_cost_micro), sum(shared_cost_micro), sum(total_cost_micro), bool_or(no_telemetry)
FROM chargeback_daily GROUP BY 1, 2, 3, 4, 5;

-- The ragged hours at the ends of a window not on day boundaries, across
-- every cluster: the primary key leads with the cluster.
CREATE INDEX chargeback_hourly_by_hour ON chargeback_hourly (hour);
