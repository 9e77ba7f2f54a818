-- An hour of a cluster marked for the chargeback to compute again (or marked
-- again while leased) is marked for the waste pass as well: the same facts
-- (holds, telemetry, prices) make both. The fleet's own marks (cluster '',
-- its fixed lines) change no waste.
CREATE OR REPLACE FUNCTION fleetcap_mark_waste_recompute() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO insight_waste_recompute AS m (cluster, hour, noted_at)
  VALUES (NEW.cluster, NEW.hour, clock_timestamp())
  ON CONFLICT (cluster, hour) DO UPDATE SET noted_at = EXCLUDED.noted_at;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER waste_marked AFTER INSERT ON chargeback_recompute
  FOR EACH ROW WHEN (NEW.cluster <> '') EXECUTE FUNCTION fleetcap_mark_waste_recompute();
CREATE OR REPLACE TRIGGER waste_marked_again AFTER UPDATE OF generation ON chargeback_recompute
  FOR EACH ROW WHEN (NEW.cluster <> '' AND NEW.generation <> OLD.generation)
  EXECUTE FUNCTION fleetcap_mark_waste_recompute();
