-- Who holds devices "now", kept (migration 0033): a statement's change to holders_now.
-- Adds, per (cluster, namespace, team) given, milli held by open holds (< 0:
-- released), and drops the rows it leaves at zero.
CREATE OR REPLACE FUNCTION fleetcap_holders_now_add(clusters text[], namespaces text[], teams text[],
                                                    millis bigint[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO holders_now AS f (cluster, namespace, team, held_milli)
  SELECT cluster, namespace, team, sum(milli)
    FROM unnest(clusters, namespaces, teams, millis) AS c(cluster, namespace, team, milli)
   GROUP BY cluster, namespace, team HAVING sum(milli) <> 0
   ORDER BY cluster, namespace, team
  ON CONFLICT (cluster, namespace, team) DO UPDATE SET held_milli = f.held_milli + EXCLUDED.held_milli;
  DELETE FROM holders_now f USING unnest(clusters, namespaces, teams) AS c(cluster, namespace, team)
   WHERE f.cluster = c.cluster AND f.namespace = c.namespace AND f.team = c.team AND f.held_milli = 0;
$$;
