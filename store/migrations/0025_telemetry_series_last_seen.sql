-- telemetry_series grew without bound: a series per device, pod and field
-- ever seen, kept after retention dropped every minute of it, so a fleet
-- whose pods churn added rows forever. `last_seen` is when a writer last
-- asked for the series (kept cheaply: moved only when it advances by more
-- than an hour), and the retention pass (MaintainUsagePartitions) deletes
-- the series not seen within the retention window. A series seen again
-- after that is registered afresh. Existing series count as seen now.
ALTER TABLE telemetry_series ADD COLUMN last_seen timestamptz NOT NULL DEFAULT now();
