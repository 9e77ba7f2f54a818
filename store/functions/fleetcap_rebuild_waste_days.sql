-- The days [from_day, to_day) of one cluster's waste rollups (migration
-- 0042) made again from the hours they sum: per workload and model, the
-- pieces of idle runs with the runs each day begins and those it continues
-- from the day before; per workload, the workload hours. The waste pass calls
-- it in the transaction that replaces hours, for every day they touch and the
-- day after their last hour (whose first pieces may continue theirs), so the
-- rollups always agree with the hours.
--
-- A piece continues a run when it starts at its hour and a piece of the same
-- pod ends there in the hour before (two runs of a pod never touch):
-- insights::JoinRuns' rule, so a window's runs are the pieces that do not
-- continue one inside it.
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
