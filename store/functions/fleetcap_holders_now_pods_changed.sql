-- Who holds devices "now", kept (migration 0033; fleetcap_holders_now_holds_changed.sql):
-- a pods statement's change to holders_now.
CREATE OR REPLACE FUNCTION fleetcap_holders_now_pods_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM fleetcap_holders_now_add_pods(array_agg(cluster), array_agg(pod_uid), array_agg(namespace),
                                          array_agg(team), array_agg(1::bigint))
       FROM new_pods;
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM fleetcap_holders_now_add_pods(array_agg(cluster), array_agg(pod_uid), array_agg(namespace),
                                          array_agg(team), array_agg(n))
       FROM (SELECT cluster, pod_uid, namespace, team, -1::bigint AS n FROM old_pods
             UNION ALL
             SELECT cluster, pod_uid, namespace, team, 1::bigint FROM new_pods) AS c;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM fleetcap_holders_now_add_pods(array_agg(cluster), array_agg(pod_uid), array_agg(namespace),
                                          array_agg(team), array_agg(-1::bigint))
       FROM old_pods;
  ELSE
    PERFORM fleetcap_holders_now_rebuild();
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER holders_now_pods_inserted AFTER INSERT ON pods
  REFERENCING NEW TABLE AS new_pods FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_holders_now_pods_changed();
CREATE OR REPLACE TRIGGER holders_now_pods_updated AFTER UPDATE ON pods
  REFERENCING OLD TABLE AS old_pods NEW TABLE AS new_pods
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_holders_now_pods_changed();
CREATE OR REPLACE TRIGGER holders_now_pods_deleted AFTER DELETE ON pods
  REFERENCING OLD TABLE AS old_pods FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_holders_now_pods_changed();
CREATE OR REPLACE TRIGGER holders_now_pods_truncated AFTER TRUNCATE ON pods
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_holders_now_pods_changed();
