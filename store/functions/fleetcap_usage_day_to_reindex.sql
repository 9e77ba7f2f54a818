-- The day of usage_series_hour whose indexes are due to be rebuilt, the
-- oldest first, or NULLs (migration 0046). A move inserts each hour's rows
-- into every series' place in the partition's indexes, whose leaf pages
-- split and stay part full: as the moves leave them, a day's indexes are a
-- quarter to a half larger than built once (0.7 to 1.3 bytes a
-- device-minute, docs/benchmarks.md). A day is due once a move marked it
-- (usage_series_days_to_reindex), it ended three hours ago (when its last
-- hour can be moved) and none of its hours is due to be moved; its
-- partition, and the latest mark seen, which PgUsageCompaction clears after
-- `REINDEX ... CONCURRENTLY` (which no function can run): a move of the day
-- marked since keeps it due.
CREATE OR REPLACE FUNCTION fleetcap_usage_day_to_reindex(OUT day date, OUT partition_name text,
                                                         OUT marked_until timestamptz)
LANGUAGE sql STABLE AS $$
  SELECT m.day, 'usage_series_hour_' || to_char(m.day, 'YYYYMMDD'), max(m.marked_at)
    FROM usage_series_days_to_reindex m
   WHERE (m.day + 1)::timestamp AT TIME ZONE 'UTC' + interval '3 hours' <= now()
     AND NOT EXISTS (SELECT 1 FROM usage_hours_to_compact d
                      WHERE d.hour >= m.day::timestamp AT TIME ZONE 'UTC'
                        AND d.hour < (m.day + 1)::timestamp AT TIME ZONE 'UTC')
   GROUP BY m.day
   ORDER BY m.day
   LIMIT 1
$$;
