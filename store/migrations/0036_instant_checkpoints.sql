-- The fleet summary at a past instant without reading what was current then
-- (PgLiveInventoryRepository::SummarizeAt, PgTeamFactsRepository::HoldersAt
-- before the horizon; docs/benchmarks.md, "Fleet summary at past
-- instants"). Migration 0029 stabs the spans of the holds and devices
-- current at the instant: every hold of the fleet then, 150,000 at the
-- benchmark's size, 12 s. The summary at t is now a known summary nearby
-- and the change between the two: what is current at t less what is
-- current at s is the (hold, device row) pairs whose common span begins in
-- (s, t] less those whose common span ends there, so only the holds and
-- device rows that began or ended between the two are read
-- (store/instant_sources.h). The known summaries are the kept "now"
-- (migrations 0032, 0033) and checkpoints:
--   instant_checkpoints: the instants of a cluster whose summary is kept,
--   every quarter hour of its history, filled by the optimizer's passes
--   (PgInstantCheckpointRepository); a row here vouches for the rows of the
--   two tables below at that instant;
--   summary_checkpoints, holder_checkpoints: the summary at that instant,
--   per model (devices in service, milli-devices held on them) and per
--   (namespace, team label) (milli-devices held), as the facts sum them.
-- A change to the facts of a cluster forgets its checkpoints at instants
-- inside the spans the change touched (fleetcap_forget_checkpoints, called
-- by the same statement triggers that mark hours for recompute), in the
-- writing statement; the next pass builds them again. The checkpoint rows
-- without their instant's row stay until then: readers go by
-- instant_checkpoints. A writer forgets under a shared advisory lock of its
-- cluster and a builder writes under the exclusive one, so no checkpoint
-- built from facts older than a committed change outlives it.
CREATE TABLE instant_checkpoints (
  cluster text NOT NULL,
  at      timestamptz NOT NULL,
  PRIMARY KEY (cluster, at)
);
CREATE TABLE summary_checkpoints (
  cluster    text NOT NULL,
  at         timestamptz NOT NULL,
  model      text NOT NULL,
  devices    bigint NOT NULL,
  held_milli bigint NOT NULL,
  PRIMARY KEY (cluster, at, model)
);
CREATE TABLE holder_checkpoints (
  cluster    text NOT NULL,
  at         timestamptz NOT NULL,
  namespace  text NOT NULL,
  team       text NOT NULL,
  held_milli bigint NOT NULL,
  PRIMARY KEY (cluster, at, namespace, team)
);
-- The device rows that ended between two instants (holds have holds_by_end,
-- and both have their starts indexed): closed rows only, a few.
CREATE INDEX devices_closed_by_end ON devices (cluster, in_service_to) WHERE in_service_to IS NOT NULL;

-- As store/functions/fleetcap_forget_checkpoints.sql first defined it (the file holds the definition in force).
-- The facts of `cluster_name` changed over `spans`: its summary checkpoints
-- at instants inside them (migration 0036) no longer hold. Forgotten under
-- the shared advisory lock of the cluster, which a checkpoint's builder
-- takes exclusively (PgInstantCheckpointRepository): a builder that read
-- the facts before this change cannot commit after this statement looked.
CREATE OR REPLACE FUNCTION fleetcap_forget_checkpoints(cluster_name text, spans tstzmultirange) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(hashtext('instant_checkpoints'), hashtext(cluster_name));
  DELETE FROM instant_checkpoints i
   USING unnest(spans) r
   WHERE i.cluster = cluster_name
     AND i.at >= coalesce(lower(r), '-infinity'::timestamptz) AND i.at <= coalesce(upper(r), 'infinity'::timestamptz)
     AND r @> i.at;
END $$;

-- As store/functions/fleetcap_inventory_corrected.sql first defined it.
-- The facts of `cluster_name` (its holds, device rows, or pods through
-- their holds) changed over `spans`: the computed hours they touch are
-- marked for recompute, and the summary checkpoints inside them forgotten.
CREATE OR REPLACE FUNCTION fleetcap_inventory_corrected(cluster_name text, spans tstzmultirange) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM fleetcap_forget_checkpoints(cluster_name, spans);
  IF EXISTS (SELECT 1 FROM chargeback_watermarks) THEN
    PERFORM fleetcap_mark_recompute(cluster_name, spans, 'corrected inventory');
  END IF;
END $$;

-- As store/functions/fleetcap_forget_all_checkpoints.sql first defined it.
-- A TRUNCATE of holds, devices or pods changes every instant of every
-- cluster: every summary checkpoint (migration 0036) is forgotten. No
-- builder is reading then: TRUNCATE waits for every reader of the table.
CREATE OR REPLACE FUNCTION fleetcap_forget_all_checkpoints() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM instant_checkpoints;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER holds_truncated_checkpoints AFTER TRUNCATE ON holds
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_forget_all_checkpoints();
CREATE OR REPLACE TRIGGER devices_truncated_checkpoints AFTER TRUNCATE ON devices
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_forget_all_checkpoints();
CREATE OR REPLACE TRIGGER pods_truncated_checkpoints AFTER TRUNCATE ON pods
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_forget_all_checkpoints();

-- As store/functions/fleetcap_holds_changed.sql now defines it: the checkpoints forgotten with the hours marked.
-- Inventory corrections: a hold's interval or share changed
-- (fleetcap_inventory_corrected: the computed hours and summary checkpoints it touches).
-- Inserted and deleted rows touch their whole interval; an updated row the
-- span between its old and new interval, or all of both when what the facts
-- read of it changed too.
CREATE OR REPLACE FUNCTION fleetcap_holds_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM fleetcap_inventory_corrected(cluster, range_agg(tstzrange(held_from, held_to)))
       FROM new_holds GROUP BY cluster;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM fleetcap_inventory_corrected(cluster, range_agg(tstzrange(held_from, held_to)))
       FROM old_holds GROUP BY cluster;
  ELSE
    PERFORM fleetcap_inventory_corrected(c.cluster, range_agg(c.span))
       FROM (SELECT coalesce(n.cluster, o.cluster) AS cluster, s.span
               FROM old_holds o
               FULL JOIN new_holds n USING (cluster, pod_uid, device_id, held_from)
               CROSS JOIN LATERAL unnest(CASE
                 WHEN o.cluster IS NULL THEN tstzmultirange(tstzrange(n.held_from, n.held_to))
                 WHEN n.cluster IS NULL THEN tstzmultirange(tstzrange(o.held_from, o.held_to))
                 WHEN o.milli <> n.milli
                   THEN tstzmultirange(tstzrange(o.held_from, o.held_to), tstzrange(n.held_from, n.held_to))
                 ELSE fleetcap_changed_spans(o.held_from, o.held_to, n.held_from, n.held_to)
               END) s(span)) c
      GROUP BY c.cluster;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER holds_inserted AFTER INSERT ON holds
  REFERENCING NEW TABLE AS new_holds FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_holds_changed();
CREATE OR REPLACE TRIGGER holds_updated AFTER UPDATE ON holds
  REFERENCING OLD TABLE AS old_holds NEW TABLE AS new_holds FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_holds_changed();
CREATE OR REPLACE TRIGGER holds_deleted AFTER DELETE ON holds
  REFERENCING OLD TABLE AS old_holds FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_holds_changed();

-- As store/functions/fleetcap_devices_changed.sql now defines it: the checkpoints forgotten with the hours marked.
-- Inventory corrections: a device's service period, node or model changed
-- (fleetcap_inventory_corrected: the computed hours and summary checkpoints it touches).
-- Inserted and deleted rows touch their whole interval; an updated row the
-- span between its old and new interval, or all of both when what the facts
-- read of it changed too.
CREATE OR REPLACE FUNCTION fleetcap_devices_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM fleetcap_inventory_corrected(cluster, range_agg(tstzrange(in_service_from, in_service_to)))
       FROM new_devices GROUP BY cluster;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM fleetcap_inventory_corrected(cluster, range_agg(tstzrange(in_service_from, in_service_to)))
       FROM old_devices GROUP BY cluster;
  ELSE
    PERFORM fleetcap_inventory_corrected(c.cluster, range_agg(c.span))
       FROM (SELECT coalesce(n.cluster, o.cluster) AS cluster, s.span
               FROM old_devices o
               FULL JOIN new_devices n USING (cluster, device_id, in_service_from)
               CROSS JOIN LATERAL unnest(CASE
                 WHEN o.cluster IS NULL THEN tstzmultirange(tstzrange(n.in_service_from, n.in_service_to))
                 WHEN n.cluster IS NULL THEN tstzmultirange(tstzrange(o.in_service_from, o.in_service_to))
                 WHEN (o.node, o.model) IS DISTINCT FROM (n.node, n.model)
                   THEN tstzmultirange(tstzrange(o.in_service_from, o.in_service_to),
                                       tstzrange(n.in_service_from, n.in_service_to))
                 ELSE fleetcap_changed_spans(o.in_service_from, o.in_service_to, n.in_service_from, n.in_service_to)
               END) s(span)) c
      GROUP BY c.cluster;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER devices_inserted AFTER INSERT ON devices
  REFERENCING NEW TABLE AS new_devices FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_devices_changed();
CREATE OR REPLACE TRIGGER devices_updated AFTER UPDATE ON devices
  REFERENCING OLD TABLE AS old_devices NEW TABLE AS new_devices
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_devices_changed();
CREATE OR REPLACE TRIGGER devices_deleted AFTER DELETE ON devices
  REFERENCING OLD TABLE AS old_devices FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_devices_changed();

-- As store/functions/fleetcap_pods_changed.sql now defines it: the checkpoints forgotten with the hours marked.
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

-- As store/functions/fleetcap_mark_pods_holds.sql now defines it: the checkpoints forgotten with the hours marked.
-- A pod is read only through its holds (namespace, own team label, top
-- controller): a pod inserted or deleted, or one of those changed, touches
-- the hours of its holds. Its phase, deletion time and the rest do not.
CREATE OR REPLACE FUNCTION fleetcap_mark_pods_holds(clusters text[], pod_uids text[]) RETURNS void
LANGUAGE sql AS $$
  SELECT fleetcap_inventory_corrected(h.cluster, range_agg(tstzrange(h.held_from, h.held_to)))
    FROM unnest(clusters, pod_uids) p(cluster, pod_uid)
    JOIN holds h ON h.cluster = p.cluster AND h.pod_uid = p.pod_uid
   GROUP BY h.cluster
$$;
