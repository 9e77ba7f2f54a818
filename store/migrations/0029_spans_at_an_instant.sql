-- What was held and in service at one instant (the fleet summary:
-- PgLiveInventoryRepository::SummarizeAt, PgTeamFactsRepository::HoldersAt)
-- without reading all history. `held_from <= at AND (held_to IS NULL OR
-- held_to > at)` had only holds_by_time (cluster, held_from, held_to) to go
-- by, which finds every hold that began before the instant: a year of holds
-- for "now" (docs/benchmarks.md, "Fleet summary over a year of history").
-- The readers ask the two halves apart:
--   open rows (held_to IS NULL): a partial index on them alone, as many as
--   the holds of the live fleet; it carries what the summary sums, so "now"
--   reads the index only;
--   closed rows: a GiST index on their span [held_from, held_to), which finds
--   the spans holding an instant without visiting the others (range_ops, no
--   extension). Keyed by the span alone: one instant's holds of every cluster
--   are the fleet's, and a table distributed by cluster (docs/scaling.md)
--   has one cluster's in each shard.
-- The devices' service periods the same way (devices_open already exists).
-- Indexes, so every writer keeps them in the transaction that writes the
-- facts.
CREATE INDEX holds_open ON holds (cluster, device_id) INCLUDE (pod_uid, milli, held_from) WHERE held_to IS NULL;
CREATE INDEX holds_closed_span ON holds USING gist (tstzrange(held_from, held_to)) WHERE held_to IS NOT NULL;
CREATE INDEX devices_closed_span ON devices USING gist (tstzrange(in_service_from, in_service_to))
  WHERE in_service_to IS NOT NULL;
