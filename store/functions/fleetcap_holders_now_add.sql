-- Who holds devices "now", kept (migration 0033): a statement's change to holders_now.
-- Adds, per (cluster, namespace, team) given, milli held by open holds (< 0:
-- released), and drops the rows left at zero in the clusters given (a few
-- rows a cluster to look at, not a probe per row given).
CREATE OR REPLACE FUNCTION fleetcap_holders_now_add(clusters text[], namespaces text[], teams text[],
                                                    millis bigint[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO holders_now AS f (cluster, namespace, team, held_milli)
  SELECT cluster, namespace, team, sum(milli)
    FROM unnest(clusters, namespaces, teams, millis) AS c(cluster, namespace, team, milli)
   GROUP BY cluster, namespace, team HAVING sum(milli) <> 0
   ORDER BY cluster, namespace, team
  ON CONFLICT (cluster, namespace, team) DO UPDATE SET held_milli = f.held_milli + EXCLUDED.held_milli;
  DELETE FROM holders_now
   WHERE held_milli = 0 AND cluster IN (SELECT DISTINCT cluster FROM unnest(clusters) AS c(cluster));
$$;
