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
