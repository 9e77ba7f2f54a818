-- The open rows of nodes and devices, and the live pods, indexed by their
-- key, not by the cluster alone. Statements that look up open rows one key
-- at a time (the fleet_now triggers joining a batch's holds to the open
-- device rows; who holds devices now, joining the open holds to the live
-- pods) were planned, on tables without statistics, as nested loops over an
-- index of the cluster alone, filtering every open row of the cluster for
-- each key: quadratic in the cluster (who held devices now: 14 s for 20,000
-- pods). Keyed, such a probe reads one row. (A batch also analyzes the
-- tables it outgrows, PgLiveInventoryRepository::Apply, since other
-- indexes lead with the cluster too.)
DROP INDEX nodes_open;
CREATE INDEX nodes_open ON nodes (cluster, node) WHERE in_service_to IS NULL;
DROP INDEX devices_open;
CREATE INDEX devices_open ON devices (cluster, device_id) WHERE in_service_to IS NULL;
-- pods_live_holders (migration 0032) is the live pods by key already.
DROP INDEX pods_live;
