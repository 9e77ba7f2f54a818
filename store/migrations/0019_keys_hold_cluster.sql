-- Every key of a table to be distributed by cluster holds the cluster
-- (docs/scaling.md, store/distribution_plan.cc): a distributed store enforces
-- a key within one shard only, so a key without the distribution column
-- would stop being one. The two surrogate keys gain the cluster in front.
-- Their sequences stay, so ids remain unique across clusters as before, and
-- nothing refers to either key. The quarantine is listed newest id first
-- across clusters: an index on the id alone keeps that an index scan.
ALTER TABLE quarantine DROP CONSTRAINT quarantine_pkey, ADD PRIMARY KEY (cluster, id);
CREATE INDEX quarantine_by_id ON quarantine (id);
ALTER TABLE telemetry_series DROP CONSTRAINT telemetry_series_pkey, ADD PRIMARY KEY (cluster, series_id);
