-- Long windows read rollups whose grain fits the answer
-- (docs/benchmarks.md, "Capacity and chargeback over long windows"):
--   the capacity series by model or cluster (no team asked for) summed every
--   team's hourly rows of chargeback_hourly_by_team, a few hundred an hour
--   over 90 days: chargeback_hourly_by_model keeps the same sums without the
--   team, a few dozen rows an hour;
--   a report by team and month read chargeback_monthly (every workload's
--   row) on whole months, and every day of chargeback_daily_by_team when the
--   window does not start and end on a month: chargeback_monthly_by_team
--   keeps the months without namespace and workload, and Lines reads the
--   whole months there, the ragged days from the daily rollup and the ragged
--   hours from the hourly one.
-- ReplaceHours rebuilds both in the same transaction as the hours they sum,
-- as it does the other rollups: chargeback_hourly_by_model from
-- chargeback_hourly_by_team, chargeback_monthly_by_team from
-- chargeback_daily_by_team.
CREATE TABLE chargeback_hourly_by_model (
  cluster                 text NOT NULL,
  hour                    timestamptz NOT NULL CHECK (date_trunc('hour', hour, 'UTC') = hour),
  model                   text NOT NULL,
  line_kind               text NOT NULL,
  held_milli_seconds      bigint NOT NULL,
  used_milli_seconds      bigint NOT NULL,
  observed_milli_seconds  bigint NOT NULL DEFAULT 0,
  direct_cost_micro       bigint NOT NULL,
  idle_cost_micro         bigint NOT NULL,
  shared_cost_micro       bigint NOT NULL,
  total_cost_micro        bigint NOT NULL,
  no_telemetry            boolean NOT NULL,
  PRIMARY KEY (cluster, hour, model, line_kind)
);
-- The hours of a window across every cluster: the primary key leads with the cluster.
CREATE INDEX chargeback_hourly_by_model_by_hour ON chargeback_hourly_by_model (hour);

CREATE TABLE chargeback_monthly_by_team (
  cluster                 text NOT NULL,
  month                   timestamptz NOT NULL CHECK (date_trunc('month', month, 'UTC') = month),
  team                    text NOT NULL,
  model                   text NOT NULL,
  line_kind               text NOT NULL,
  held_milli_seconds      bigint NOT NULL,
  used_milli_seconds      bigint NOT NULL,
  observed_milli_seconds  bigint NOT NULL DEFAULT 0,
  direct_cost_micro       bigint NOT NULL,
  idle_cost_micro         bigint NOT NULL,
  shared_cost_micro       bigint NOT NULL,
  total_cost_micro        bigint NOT NULL,
  no_telemetry            boolean NOT NULL,
  PRIMARY KEY (cluster, month, team, model, line_kind)
);

-- The days of a window across every cluster (the ragged days of a window by
-- month, or a month of days), as the hourly rollups have theirs.
CREATE INDEX chargeback_daily_by_team_by_day ON chargeback_daily_by_team (day);
-- One team's hours (a team token's series, or a planner naming a team):
-- by hour alone they are found among every team's.
CREATE INDEX chargeback_hourly_by_team_by_team ON chargeback_hourly_by_team (team, hour);

-- Filled from the rollups already there.
INSERT INTO chargeback_hourly_by_model (cluster, hour, model, line_kind, held_milli_seconds, used_milli_seconds,
                                        observed_milli_seconds, direct_cost_micro, idle_cost_micro, shared_cost_micro,
                                        total_cost_micro, no_telemetry)
SELECT cluster, hour, model, line_kind, sum(held_milli_seconds), sum(used_milli_seconds), sum(observed_milli_seconds),
       sum(direct_cost_micro), sum(idle_cost_micro), sum(shared_cost_micro), sum(total_cost_micro), bool_or(no_telemetry)
FROM chargeback_hourly_by_team GROUP BY 1, 2, 3, 4;

INSERT INTO chargeback_monthly_by_team (cluster, month, team, model, line_kind, held_milli_seconds, used_milli_seconds,
                                        observed_milli_seconds, direct_cost_micro, idle_cost_micro, shared_cost_micro,
                                        total_cost_micro, no_telemetry)
SELECT cluster, date_trunc('month', day, 'UTC'), team, model, line_kind, sum(held_milli_seconds),
       sum(used_milli_seconds), sum(observed_milli_seconds), sum(direct_cost_micro), sum(idle_cost_micro),
       sum(shared_cost_micro), sum(total_cost_micro), bool_or(no_telemetry)
FROM chargeback_daily_by_team GROUP BY 1, 2, 3, 4, 5;

-- The devices in service of each (cluster, model) as a step function kept,
-- not recomputed: `devices` is the change in their number at `at` (the sum
-- of +1 at each service period's start and -1 at each end), so the number
-- in service at t is the sum of the steps at or before t. The capacity
-- series read every device interval overlapping its window, the whole fleet
-- for any recent window; it now reads the steps, as many as the distinct
-- instants the fleet changed at. fleetcap_capacity_steps
-- (store/functions/) keeps it in the statement that writes the devices.
-- A step whose changes cancel stays, at 0.
CREATE TABLE capacity_steps (
  cluster  text NOT NULL,
  model    text NOT NULL,
  at       timestamptz NOT NULL,
  devices  bigint NOT NULL,
  PRIMARY KEY (cluster, model, at)
);

INSERT INTO capacity_steps (cluster, model, at, devices)
SELECT cluster, model, at, sum(d)
  FROM (SELECT cluster, model, in_service_from AS at, 1 AS d FROM devices
        UNION ALL
        SELECT cluster, model, in_service_to, -1 FROM devices WHERE in_service_to IS NOT NULL) e
 GROUP BY 1, 2, 3;

-- The function and triggers that keep the steps, as store/functions/fleetcap_capacity_steps.sql defines
-- them (the file is the definition in force).
-- capacity_steps (migration 0031) kept in the statement that writes the
-- devices: +1 at each inserted service period's start and -1 at its end,
-- the opposite for a deleted one, both for an updated one (its old period
-- out, its new one in). The steps of one statement are summed first and
-- written in key order, so two writers lock shared steps in the same order.
CREATE OR REPLACE FUNCTION fleetcap_capacity_steps() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO capacity_steps AS s (cluster, model, at, devices)
    SELECT cluster, model, at, sum(d) FROM (
      SELECT cluster, model, in_service_from AS at, 1 AS d FROM new_devices
      UNION ALL SELECT cluster, model, in_service_to, -1 FROM new_devices WHERE in_service_to IS NOT NULL) e
     GROUP BY 1, 2, 3 HAVING sum(d) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (cluster, model, at) DO UPDATE SET devices = s.devices + EXCLUDED.devices;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO capacity_steps AS s (cluster, model, at, devices)
    SELECT cluster, model, at, sum(d) FROM (
      SELECT cluster, model, in_service_from AS at, -1 AS d FROM old_devices
      UNION ALL SELECT cluster, model, in_service_to, 1 FROM old_devices WHERE in_service_to IS NOT NULL) e
     GROUP BY 1, 2, 3 HAVING sum(d) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (cluster, model, at) DO UPDATE SET devices = s.devices + EXCLUDED.devices;
  ELSE
    INSERT INTO capacity_steps AS s (cluster, model, at, devices)
    SELECT cluster, model, at, sum(d) FROM (
      SELECT cluster, model, in_service_from AS at, 1 AS d FROM new_devices
      UNION ALL SELECT cluster, model, in_service_to, -1 FROM new_devices WHERE in_service_to IS NOT NULL
      UNION ALL SELECT cluster, model, in_service_from, -1 FROM old_devices
      UNION ALL SELECT cluster, model, in_service_to, 1 FROM old_devices WHERE in_service_to IS NOT NULL) e
     GROUP BY 1, 2, 3 HAVING sum(d) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (cluster, model, at) DO UPDATE SET devices = s.devices + EXCLUDED.devices;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER capacity_steps_inserted AFTER INSERT ON devices
  REFERENCING NEW TABLE AS new_devices FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_capacity_steps();
CREATE OR REPLACE TRIGGER capacity_steps_updated AFTER UPDATE ON devices
  REFERENCING OLD TABLE AS old_devices NEW TABLE AS new_devices
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_capacity_steps();
CREATE OR REPLACE TRIGGER capacity_steps_deleted AFTER DELETE ON devices
  REFERENCING OLD TABLE AS old_devices FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_capacity_steps();
