-- The waste of [:start, :end) in one query over the store (tests/bench/insights_bench.cc
-- runs it beside the optimizer's waste pass): a pod's minute is idle when every
-- device the pod holds in it has a reading below :idle_below (SM activity
-- where read, else duty cycle); a minute any held device has no reading for is
-- unknown and breaks a run. Consecutive idle minutes of a pod are a run
-- (gaps and islands: a minute less its rank among the pod's idle minutes is
-- the same for every minute of one run); a run of at least :idle_for is
-- waste, with its held device time (milli-devices x seconds) and its money at
-- bench_prices (micro-units a device-hour), rounded once, half up.
-- Holds here start and end on whole minutes, as the bench seeds them.
CREATE TEMP TABLE sql_runs AS
WITH held AS (
  SELECT h.cluster, h.pod_uid, h.device_id, m.minute
    FROM holds h,
         generate_series(greatest(h.held_from, :start), least(coalesce(h.held_to, :end), :end) - interval '1 minute',
                         interval '1 minute') AS m(minute)
   WHERE h.held_from < :end AND (h.held_to IS NULL OR h.held_to > :start)
), judged AS (
  SELECT held.cluster, held.pod_uid, held.minute,
         bool_and(u.minute IS NOT NULL AND coalesce(u.sm_active_mean, u.util_mean) < :idle_below) AS idle
    FROM held
    LEFT JOIN usage_minute u ON u.cluster = held.cluster AND u.device_id = held.device_id
                            AND u.pod_uid = held.pod_uid AND u.minute = held.minute
   GROUP BY held.cluster, held.pod_uid, held.minute
), islands AS (
  SELECT cluster, pod_uid, minute,
         minute - row_number() OVER (PARTITION BY cluster, pod_uid ORDER BY minute) * interval '1 minute' AS island
    FROM judged WHERE idle
), runs AS (
  SELECT cluster, pod_uid, min(minute) AS start_at, max(minute) + interval '1 minute' AS end_at
    FROM islands GROUP BY cluster, pod_uid, island
  HAVING max(minute) + interval '1 minute' - min(minute) >= :idle_for
)
SELECT r.cluster, r.pod_uid, r.start_at, r.end_at,
       sum(h.milli * extract(epoch FROM least(r.end_at, coalesce(h.held_to, r.end_at)) - greatest(r.start_at, h.held_from)))::bigint
         AS wasted_milli_seconds,
       round(sum(h.milli * extract(epoch FROM least(r.end_at, coalesce(h.held_to, r.end_at)) - greatest(r.start_at, h.held_from))
                 * p.micro_per_hour) / 3600000)::bigint AS wasted_cost_micro
  FROM runs r
  JOIN holds h ON h.cluster = r.cluster AND h.pod_uid = r.pod_uid AND h.held_from < r.end_at
              AND (h.held_to IS NULL OR h.held_to > r.start_at)
  JOIN devices d ON d.cluster = h.cluster AND d.device_id = h.device_id AND d.in_service_to IS NULL
  JOIN bench_prices p ON p.model = d.model
 GROUP BY r.cluster, r.pod_uid, r.start_at, r.end_at;
