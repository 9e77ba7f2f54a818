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
