-- Kubernetes inventory ingest: incremental, restart-safe writes.
-- The ingest keeps a cluster's open rows (nodes, devices, holds still in
-- service or held) and live pods exact; these indexes find them quickly.

-- The node a pod was bound to ('' while unbound).
ALTER TABLE pods ADD COLUMN node text NOT NULL DEFAULT '';

-- The TPU slice topology of a node ('' for other accelerators).
ALTER TABLE nodes ADD COLUMN accelerator_topology text NOT NULL DEFAULT '';

CREATE INDEX nodes_open ON nodes (cluster) WHERE in_service_to IS NULL;
CREATE INDEX devices_open ON devices (cluster) WHERE in_service_to IS NULL;
CREATE INDEX pods_live ON pods (cluster) WHERE deleted_at IS NULL;

-- Unmet demand: a pod asking for accelerators that waits unscheduled, from
-- its creation until it is bound or deleted ([pending_from, pending_to),
-- open while it waits). `model` is what the pod selects ('' = any).
CREATE TABLE pending_demand (
  cluster          text NOT NULL REFERENCES clusters ON DELETE CASCADE,
  pod_uid          text NOT NULL,
  resource_name    text NOT NULL,
  model            text NOT NULL DEFAULT '',
  requested_milli  bigint NOT NULL CHECK (requested_milli > 0),
  pending_from     timestamptz NOT NULL,
  pending_to       timestamptz CHECK (pending_to IS NULL OR pending_to >= pending_from),
  PRIMARY KEY (cluster, pod_uid, pending_from)
);
CREATE INDEX pending_demand_by_time ON pending_demand (cluster, pending_from, pending_to);
