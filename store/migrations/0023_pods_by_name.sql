-- A telemetry series names its pod by namespace and name; the receiver finds
-- the pod's uid once per new series (PgUsageRepository::IdentifySeries). With
-- no index on the name, each lookup scanned the cluster's pods: 20,000 new
-- series over 20,000 pods took 65 s, and it grows with their product
-- (docs/benchmarks.md, "Scale: 3 clusters x 10,000 nodes and 2 API replicas").
-- With it, the same lookups take 0.15 s. Keyed by cluster first, as every
-- index of a table distributed by cluster (docs/scaling.md).
CREATE INDEX pods_by_name ON pods (cluster, namespace, name);
