-- Rightsizing recommendations (docs/insights.md, "Rightsizing";
-- store/rightsizing_repository.h): the latest the optimizer computed for
-- each cluster, with the lookback they stand on and when they were
-- computed. A new computation replaces a cluster's run and its
-- recommendations at once; there is no history.
CREATE TABLE insight_rightsizing_runs (
  cluster        text PRIMARY KEY CHECK (length(cluster) BETWEEN 1 AND 253),
  lookback_start timestamptz NOT NULL,
  lookback_end   timestamptz NOT NULL CHECK (lookback_end > lookback_start),
  computed_at    timestamptz NOT NULL,
  currency       text NOT NULL CHECK (currency ~ '^[A-Z]{3}$')
);

CREATE TABLE insight_rightsizing (
  cluster                 text NOT NULL REFERENCES insight_rightsizing_runs (cluster) ON DELETE CASCADE,
  namespace               text NOT NULL,
  workload                text NOT NULL,
  model                   text NOT NULL,
  kind                    text NOT NULL CHECK (kind IN ('fewer_devices', 'smaller_slice', 'cheaper_flavor')),
  team                    text NOT NULL,
  current                 text NOT NULL,
  proposed                text NOT NULL,
  current_milli           bigint NOT NULL CHECK (current_milli > 0),
  proposed_milli          bigint NOT NULL CHECK (proposed_milli >= 0),
  savings_micro_per_month bigint NOT NULL CHECK (savings_micro_per_month > 0),
  evidence                text NOT NULL,
  observed_minutes        bigint NOT NULL CHECK (observed_minutes > 0),
  confidence              text NOT NULL CHECK (confidence IN ('high', 'medium', 'low')),
  p95_active_devices      double precision NOT NULL,
  p95_activity            double precision NOT NULL,
  p99_memory_bytes        bigint NOT NULL CHECK (p99_memory_bytes >= 0),
  PRIMARY KEY (cluster, namespace, workload, model, kind)
);
-- A team's recommendations (the API's team subtree), the largest saving first.
CREATE INDEX insight_rightsizing_by_team ON insight_rightsizing (team, savings_micro_per_month DESC);
