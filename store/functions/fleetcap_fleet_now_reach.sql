-- The fleet summary "now", kept (migration 0032): fleet_now_horizon.
-- Moves each cluster's horizon up to the latest instant given.
CREATE OR REPLACE FUNCTION fleetcap_fleet_now_reach(clusters text[], instants timestamptz[]) RETURNS void
  LANGUAGE sql AS $$
  INSERT INTO fleet_now_horizon AS f (cluster, horizon)
  SELECT cluster, max(instant) FROM unnest(clusters, instants) AS c(cluster, instant)
   WHERE instant IS NOT NULL GROUP BY cluster ORDER BY cluster
  ON CONFLICT (cluster) DO UPDATE SET horizon = EXCLUDED.horizon WHERE f.horizon < EXCLUDED.horizon
$$;
