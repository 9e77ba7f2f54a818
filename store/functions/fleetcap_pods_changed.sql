-- Inventory corrections: a pod inserted or deleted, or its namespace, team
-- label or workload changed, touches the hours of its holds
-- (fleetcap_mark_pods_holds).
CREATE OR REPLACE FUNCTION fleetcap_pods_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM fleetcap_mark_pods_holds(array_agg(cluster), array_agg(pod_uid)) FROM new_pods;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM fleetcap_mark_pods_holds(array_agg(cluster), array_agg(pod_uid)) FROM old_pods;
  ELSE
    PERFORM fleetcap_mark_pods_holds(array_agg(coalesce(n.cluster, o.cluster)), array_agg(coalesce(n.pod_uid, o.pod_uid)))
       FROM old_pods o FULL JOIN new_pods n USING (cluster, pod_uid)
      WHERE (o.namespace, o.team, o.workload_kind, o.workload_name)
            IS DISTINCT FROM (n.namespace, n.team, n.workload_kind, n.workload_name);
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER pods_inserted AFTER INSERT ON pods
  REFERENCING NEW TABLE AS new_pods FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_pods_changed();
CREATE OR REPLACE TRIGGER pods_updated AFTER UPDATE ON pods
  REFERENCING OLD TABLE AS old_pods NEW TABLE AS new_pods FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_pods_changed();
CREATE OR REPLACE TRIGGER pods_deleted AFTER DELETE ON pods
  REFERENCING OLD TABLE AS old_pods FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_pods_changed();
