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
