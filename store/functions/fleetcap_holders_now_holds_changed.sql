-- Who holds devices "now", kept (migration 0033): holders_now per (cluster,
-- namespace, team), the milli-devices held by the open holds (held_to IS
-- NULL) on open device rows (in_service_to IS NULL), by the namespace and
-- team label of each hold's pod: what PgTeamFactsRepository::HoldersAt reads
-- from the facts, summed per pod's (namespace, team), counted once per open
-- row of the device as that read's join counts it. Statement triggers on
-- holds, devices and pods keep it in the transaction that writes the facts,
-- from the rows each statement changed; the other two tables are as the
-- statement left them, and it changed neither, so each trigger adds its own
-- table's part of the join:
--   a holds statement: per (cluster, device, pod), the open holds it added
--   less those it removed, times the device's open rows, under the pod's
--   namespace and team (none while the pod has no row: a hold written
--   before its pod counts when the pod's row comes);
--   a devices statement: per device, the open rows it added less those it
--   removed, times the device's open holds, under each pod's namespace and
--   team;
--   a pods statement: each pod row it removed takes its open holds (times
--   their devices' open rows) out of its old namespace and team, and each it
--   left puts them under its new ones (a pod whose namespace and team did
--   not change nets to nothing and reads no hold).
-- A TRUNCATE of any of them refills it from the facts.

-- A holds statement's change to holders_now.
CREATE OR REPLACE FUNCTION fleetcap_holders_now_holds_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM fleetcap_holders_now_add_holds(array_agg(cluster), array_agg(device_id), array_agg(pod_uid),
                                           array_agg(milli::bigint))
       FROM new_holds WHERE held_to IS NULL;
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM fleetcap_holders_now_add_holds(array_agg(cluster), array_agg(device_id), array_agg(pod_uid),
                                           array_agg(milli))
       FROM (SELECT cluster, device_id, pod_uid, -milli::bigint AS milli FROM old_holds WHERE held_to IS NULL
             UNION ALL
             SELECT cluster, device_id, pod_uid, milli::bigint FROM new_holds WHERE held_to IS NULL) AS c;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM fleetcap_holders_now_add_holds(array_agg(cluster), array_agg(device_id), array_agg(pod_uid),
                                           array_agg(-milli::bigint))
       FROM old_holds WHERE held_to IS NULL;
  ELSE
    PERFORM fleetcap_holders_now_rebuild();
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER holders_now_holds_inserted AFTER INSERT ON holds
  REFERENCING NEW TABLE AS new_holds FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_holders_now_holds_changed();
CREATE OR REPLACE TRIGGER holders_now_holds_updated AFTER UPDATE ON holds
  REFERENCING OLD TABLE AS old_holds NEW TABLE AS new_holds
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_holders_now_holds_changed();
CREATE OR REPLACE TRIGGER holders_now_holds_deleted AFTER DELETE ON holds
  REFERENCING OLD TABLE AS old_holds FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_holders_now_holds_changed();
CREATE OR REPLACE TRIGGER holders_now_holds_truncated AFTER TRUNCATE ON holds
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_holders_now_holds_changed();
