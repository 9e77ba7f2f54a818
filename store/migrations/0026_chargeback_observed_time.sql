-- A line's held time with a usage reading (`observed_milli_seconds`, in
-- milli-device-seconds like held and used time): used / observed is how much
-- of the device was used, and held - observed is unknown, never unused
-- (docs/chargeback.md, "Efficiency"). The rollups carry its sum.
ALTER TABLE chargeback_hourly ADD COLUMN observed_milli_seconds bigint NOT NULL DEFAULT 0;
ALTER TABLE chargeback_hourly ADD CONSTRAINT chargeback_hourly_observed_within_held
  CHECK (observed_milli_seconds BETWEEN 0 AND held_milli_seconds);
ALTER TABLE chargeback_daily ADD COLUMN observed_milli_seconds bigint NOT NULL DEFAULT 0;
ALTER TABLE chargeback_monthly ADD COLUMN observed_milli_seconds bigint NOT NULL DEFAULT 0;
ALTER TABLE chargeback_hourly_by_team ADD COLUMN observed_milli_seconds bigint NOT NULL DEFAULT 0;
ALTER TABLE chargeback_daily_by_team ADD COLUMN observed_milli_seconds bigint NOT NULL DEFAULT 0;

-- Lines computed before this had no measure of it, so they say nothing was
-- observed (unknown, never unused) until recomputed. Every hour of every
-- cluster they cover is marked: the optimizer recomputes the marks within its
-- settle window (72 hours by default) and drops older ones, whose hours take
-- `fleetcap-optimizer recompute --from T --to T` (docs/attribution.md).
INSERT INTO chargeback_recompute (cluster, hour, reason)
SELECT DISTINCT cluster, hour, 'observed time measured' FROM chargeback_hourly WHERE cluster <> ''
ON CONFLICT (cluster, hour) DO NOTHING;
