-- Who holds devices "now" kept, not recomputed (PgTeamFactsRepository::
-- HoldersAt at or after the horizon, which the fleet summary's per-team
-- lines come from; docs/benchmarks.md, "Fleet summary over a year of
-- history"). Migration 0032 read the open holds and each one's pod from the
-- live pods' index: a probe a hold, as many as the live fleet's.
-- holders_now: per (cluster, namespace, team), the milli-devices the open
-- holds hold on open device rows, by the namespace and team label of each
-- hold's pod, as the read from the facts sums them (the team directory needs
-- no more than these three keys and the sum). Kept by statement triggers on
-- holds, devices and pods in the transaction that writes the facts; read at
-- or after fleet_now_horizon (migration 0032), as fleet_now is. The functions
-- and triggers below are as store/functions/fleetcap_holders_now_*.sql first
-- defined them (those files hold the definitions in force). Filled from the
-- facts at the end, in this transaction, so no write goes uncounted.
CREATE TABLE holders_now (
  cluster text NOT NULL,
  namespace text NOT NULL,
  team text NOT NULL,
  held_milli bigint NOT NULL,
  PRIMARY KEY (cluster, namespace, team)
);

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

-- Who holds devices "now", kept (migration 0033): a holds statement's change to holders_now.
-- Adds, per (cluster, device_id, pod_uid) given, milli held by open holds
-- (< 0: released), once per open row of the device, under the namespace and
-- team of the pod's row (none while it has none).
CREATE OR REPLACE FUNCTION fleetcap_holders_now_add_holds(clusters text[], device_ids text[], pod_uids text[],
                                                          millis bigint[]) RETURNS void LANGUAGE sql AS $$
  SELECT fleetcap_holders_now_add(array_agg(h.cluster), array_agg(p.namespace), array_agg(p.team),
                                  array_agg(h.milli * d.n))
    FROM (SELECT cluster, device_id, pod_uid, sum(milli)::bigint AS milli
            FROM unnest(clusters, device_ids, pod_uids, millis) AS c(cluster, device_id, pod_uid, milli)
           GROUP BY cluster, device_id, pod_uid HAVING sum(milli) <> 0) h
    JOIN pods p ON p.cluster = h.cluster AND p.pod_uid = h.pod_uid
    CROSS JOIN LATERAL (SELECT count(*) AS n FROM devices
                         WHERE devices.cluster = h.cluster AND devices.device_id = h.device_id
                           AND devices.in_service_to IS NULL) d
   WHERE d.n > 0
$$;

-- Who holds devices "now", kept (migration 0033): a devices statement's change to holders_now.
-- Adds, per (cluster, device_id) given, n open device rows (n < 0: removed):
-- n times what each open hold on the device holds, under its pod's namespace
-- and team.
CREATE OR REPLACE FUNCTION fleetcap_holders_now_add_devices(clusters text[], device_ids text[], ns bigint[])
  RETURNS void LANGUAGE sql AS $$
  SELECT fleetcap_holders_now_add(array_agg(h.cluster), array_agg(p.namespace), array_agg(p.team),
                                  array_agg(d.n * h.milli))
    FROM (SELECT cluster, device_id, sum(n)::bigint AS n
            FROM unnest(clusters, device_ids, ns) AS c(cluster, device_id, n)
           GROUP BY cluster, device_id HAVING sum(n) <> 0) d
    JOIN holds h ON h.cluster = d.cluster AND h.device_id = d.device_id AND h.held_to IS NULL
    JOIN pods p ON p.cluster = h.cluster AND p.pod_uid = h.pod_uid
$$;

-- Who holds devices "now", kept (migration 0033): a pods statement's change to holders_now.
-- Adds, per pod row given with its namespace and team, n rows (n < 0:
-- removed): n times what the pod's open holds hold, once per open row of
-- each device. Rows that net to nothing (an update that kept the pod's
-- namespace and team) read no hold.
CREATE OR REPLACE FUNCTION fleetcap_holders_now_add_pods(clusters text[], pod_uids text[], namespaces text[],
                                                         teams text[], ns bigint[]) RETURNS void LANGUAGE sql AS $$
  SELECT fleetcap_holders_now_add(array_agg(p.cluster), array_agg(p.namespace), array_agg(p.team),
                                  array_agg(p.n * h.milli * d.n))
    FROM (SELECT cluster, pod_uid, namespace, team, sum(n)::bigint AS n
            FROM unnest(clusters, pod_uids, namespaces, teams, ns) AS c(cluster, pod_uid, namespace, team, n)
           GROUP BY cluster, pod_uid, namespace, team HAVING sum(n) <> 0) p
    JOIN holds h ON h.cluster = p.cluster AND h.pod_uid = p.pod_uid AND h.held_to IS NULL
    CROSS JOIN LATERAL (SELECT count(*) AS n FROM devices
                         WHERE devices.cluster = h.cluster AND devices.device_id = h.device_id
                           AND devices.in_service_to IS NULL) d
   WHERE d.n > 0
$$;

-- Who holds devices "now", kept (migration 0033): holders_now filled from the facts.
-- Every open hold on an open row of its device, by its pod's namespace and
-- team label.
CREATE OR REPLACE FUNCTION fleetcap_holders_now_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM holders_now;
  INSERT INTO holders_now (cluster, namespace, team, held_milli)
  SELECT h.cluster, p.namespace, p.team, sum(h.milli)
    FROM holds h
    JOIN devices d ON d.cluster = h.cluster AND d.device_id = h.device_id AND d.in_service_to IS NULL
    JOIN pods p ON p.cluster = h.cluster AND p.pod_uid = h.pod_uid
   WHERE h.held_to IS NULL
   GROUP BY h.cluster, p.namespace, p.team;
$$;

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

-- Who holds devices "now", kept (migration 0033; fleetcap_holders_now_holds_changed.sql):
-- a devices statement's change to holders_now.
CREATE OR REPLACE FUNCTION fleetcap_holders_now_devices_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM fleetcap_holders_now_add_devices(array_agg(cluster), array_agg(device_id), array_agg(1::bigint))
       FROM new_devices WHERE in_service_to IS NULL;
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM fleetcap_holders_now_add_devices(array_agg(cluster), array_agg(device_id), array_agg(n))
       FROM (SELECT cluster, device_id, -1::bigint AS n FROM old_devices WHERE in_service_to IS NULL
             UNION ALL
             SELECT cluster, device_id, 1::bigint FROM new_devices WHERE in_service_to IS NULL) AS c;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM fleetcap_holders_now_add_devices(array_agg(cluster), array_agg(device_id), array_agg(-1::bigint))
       FROM old_devices WHERE in_service_to IS NULL;
  ELSE
    PERFORM fleetcap_holders_now_rebuild();
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER holders_now_devices_inserted AFTER INSERT ON devices
  REFERENCING NEW TABLE AS new_devices FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_holders_now_devices_changed();
CREATE OR REPLACE TRIGGER holders_now_devices_updated AFTER UPDATE ON devices
  REFERENCING OLD TABLE AS old_devices NEW TABLE AS new_devices
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_holders_now_devices_changed();
CREATE OR REPLACE TRIGGER holders_now_devices_deleted AFTER DELETE ON devices
  REFERENCING OLD TABLE AS old_devices FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_holders_now_devices_changed();
CREATE OR REPLACE TRIGGER holders_now_devices_truncated AFTER TRUNCATE ON devices
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_holders_now_devices_changed();

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

SELECT fleetcap_holders_now_rebuild();
