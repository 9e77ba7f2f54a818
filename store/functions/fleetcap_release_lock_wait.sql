-- How long a release of moved usage minutes (fleetcap_release_moved_usage_day,
-- fleetcap_release_moved_usage_hour) waits for its partition's exclusive
-- lock: a second past deadlock_timeout. A waiter blocked by an autovacuum
-- worker has it cancelled once deadlock_timeout has passed (a vacuum that
-- prevents wraparound excepted), and autovacuum visits the partition a move
-- has just emptied of its rows: waiting exactly deadlock_timeout raced that
-- cancellation and often lost, and the partition kept its pages until a
-- later move of the same day or hour, if any. As the wait's text for
-- set_config('lock_timeout', ...), in milliseconds.
CREATE OR REPLACE FUNCTION fleetcap_release_lock_wait() RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT (extract(epoch FROM current_setting('deadlock_timeout')::interval) * 1000 + 1000)::bigint || 'ms'
$$;
