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
