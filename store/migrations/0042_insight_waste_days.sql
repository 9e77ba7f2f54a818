-- Waste and workload time per UTC day (docs/insights.md, "How it is
-- computed and stored"): GetWaste sums a window's whole days from here and
-- only the hours at its ragged edges from the rows of migration 0039, so a
-- fleet's month is read in days, not in pieces per pod and hour. The waste
-- pass rebuilds the days an hour replacement touches in its transaction
-- (fleetcap_rebuild_waste_days), so they always agree with the hours, to the
-- micro-unit.
--
-- The pieces of idle runs per cluster, day, workload and model: wasted device
-- time and money, the pieces that begin a run (`runs_begun`) and those of the
-- day's first hour that continue a run of the day before (`runs_continued`):
-- a window of whole days counts the runs begun in it, and those continued
-- into its first day too.
CREATE TABLE insight_waste_days (
  cluster               text NOT NULL,
  day                   timestamptz NOT NULL CHECK (date_trunc('day', day, 'UTC') = day),
  team                  text NOT NULL,
  namespace             text NOT NULL,
  workload              text NOT NULL,
  model                 text NOT NULL,
  wasted_milli_seconds  bigint NOT NULL CHECK (wasted_milli_seconds >= 0),
  wasted_cost_micro     bigint NOT NULL CHECK (wasted_cost_micro >= 0),
  runs_begun            bigint NOT NULL CHECK (runs_begun >= 0),
  runs_continued        bigint NOT NULL CHECK (runs_continued >= 0),
  PRIMARY KEY (cluster, day, team, namespace, workload, model)
);
CREATE INDEX insight_waste_days_by_day ON insight_waste_days (day, team);

-- The workload hours per cluster, day and workload, summed.
CREATE TABLE insight_workload_days (
  cluster                    text NOT NULL,
  day                        timestamptz NOT NULL CHECK (date_trunc('day', day, 'UTC') = day),
  team                       text NOT NULL,
  namespace                  text NOT NULL,
  workload                   text NOT NULL,
  held_milli_seconds         bigint NOT NULL CHECK (held_milli_seconds > 0),
  observed_milli_seconds     bigint NOT NULL CHECK (observed_milli_seconds BETWEEN 0 AND held_milli_seconds),
  active_milli_seconds       bigint NOT NULL CHECK (active_milli_seconds BETWEEN 0 AND observed_milli_seconds),
  sm_observed_milli_seconds  bigint NOT NULL CHECK (sm_observed_milli_seconds BETWEEN 0 AND observed_milli_seconds),
  both_minutes               bigint NOT NULL CHECK (both_minutes >= 0),
  both_held_milli_seconds    bigint NOT NULL CHECK (both_held_milli_seconds >= 0),
  both_duty_milli_seconds    bigint NOT NULL CHECK (both_duty_milli_seconds >= 0),
  both_sm_milli_seconds      bigint NOT NULL CHECK (both_sm_milli_seconds >= 0),
  PRIMARY KEY (cluster, day, team, namespace, workload)
);
CREATE INDEX insight_workload_days_by_day ON insight_workload_days (day, team);

-- The runs GetWaste lists are those of the workloads it lists: read by workload.
CREATE INDEX insight_waste_runs_by_workload ON insight_waste_runs (namespace, workload, hour);

-- The function as first defined; store/functions/fleetcap_rebuild_waste_days.sql
-- holds the definition in force.
CREATE OR REPLACE FUNCTION fleetcap_rebuild_waste_days(cluster_name text, from_day timestamptz, to_day timestamptz)
RETURNS void LANGUAGE sql AS $$
  DELETE FROM insight_waste_days WHERE cluster = cluster_name AND day >= from_day AND day < to_day;
  DELETE FROM insight_workload_days WHERE cluster = cluster_name AND day >= from_day AND day < to_day;
  INSERT INTO insight_waste_days (cluster, day, team, namespace, workload, model, wasted_milli_seconds,
                                  wasted_cost_micro, runs_begun, runs_continued)
  SELECT cluster, date_trunc('day', hour, 'UTC'), team, namespace, workload, model, sum(wasted_milli_seconds),
         sum(wasted_cost_micro), count(*) FILTER (WHERE NOT continues),
         count(*) FILTER (WHERE continues AND hour = date_trunc('day', hour, 'UTC'))
    FROM (SELECT r.cluster, r.hour, r.team, r.namespace, r.workload, r.model, r.wasted_milli_seconds,
                 r.wasted_cost_micro,
                 r.start_at = r.hour AND EXISTS (
                   SELECT 1 FROM insight_waste_runs p
                    WHERE p.cluster = r.cluster AND p.hour = r.hour - interval '1 hour' AND p.pod_uid = r.pod_uid
                      AND p.end_at = r.start_at) AS continues
            FROM insight_waste_runs r
           WHERE r.cluster = cluster_name AND r.hour >= from_day AND r.hour < to_day) pieces
   GROUP BY cluster, date_trunc('day', hour, 'UTC'), team, namespace, workload, model;
  INSERT INTO insight_workload_days (cluster, day, team, namespace, workload, held_milli_seconds,
                                     observed_milli_seconds, active_milli_seconds, sm_observed_milli_seconds,
                                     both_minutes, both_held_milli_seconds, both_duty_milli_seconds,
                                     both_sm_milli_seconds)
  SELECT cluster, date_trunc('day', hour, 'UTC'), team, namespace, workload, sum(held_milli_seconds),
         sum(observed_milli_seconds), sum(active_milli_seconds), sum(sm_observed_milli_seconds), sum(both_minutes),
         sum(both_held_milli_seconds), sum(both_duty_milli_seconds), sum(both_sm_milli_seconds)
    FROM insight_workload_hours
   WHERE cluster = cluster_name AND hour >= from_day AND hour < to_day
   GROUP BY cluster, date_trunc('day', hour, 'UTC'), team, namespace, workload;
$$;

-- The days of the hours already stored.
SELECT fleetcap_rebuild_waste_days(cluster, min(date_trunc('day', hour, 'UTC')),
                                   max(date_trunc('day', hour, 'UTC')) + interval '1 day')
  FROM (SELECT cluster, hour FROM insight_waste_runs UNION ALL SELECT cluster, hour FROM insight_workload_hours) h
 GROUP BY cluster;
