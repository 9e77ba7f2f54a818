-- What the holds on each device came to, hour by hour: the attribution
-- engine's per-device part of the held, used and observed time of its
-- cluster and model's lines (optimizer/attribution/attribution_lines.h,
-- DeviceHourUse). The Assets view reads it for the used device time of a
-- node or a device, which the chargeback's lines (by team, namespace,
-- workload, model and cluster) cannot say. A device nobody held in an hour
-- has no row: it used nothing.
--
-- ReplaceHours writes the rows of a cluster's hours in the same transaction
-- as the lines they add up to, and rebuilds the days they touch, so both
-- always agree. Long windows read the daily rows for their whole days and
-- the hourly rows for their ragged ends only.
CREATE TABLE chargeback_device_hourly (
  cluster                 text NOT NULL,
  hour                    timestamptz NOT NULL CHECK (date_trunc('hour', hour, 'UTC') = hour),
  device_id               text NOT NULL,
  model                   text NOT NULL,
  node                    text NOT NULL,
  held_milli_seconds      bigint NOT NULL CHECK (held_milli_seconds > 0),
  used_milli_seconds      bigint NOT NULL CHECK (used_milli_seconds >= 0),
  observed_milli_seconds  bigint NOT NULL CHECK (observed_milli_seconds BETWEEN 0 AND held_milli_seconds),
  PRIMARY KEY (cluster, hour, device_id)
);
-- The ragged hours of a window across every cluster: the primary key leads with the cluster.
CREATE INDEX chargeback_device_hourly_by_hour ON chargeback_device_hourly (hour);
-- A node's devices (the Assets view's drill-down to a node): its rows
-- alone, not every row of its cluster in the window.
CREATE INDEX chargeback_device_hourly_by_node ON chargeback_device_hourly (node, hour);

-- A device's node or model may change within a day (its inventory
-- corrected): each keeps its own row.
CREATE TABLE chargeback_device_daily (
  cluster                 text NOT NULL,
  day                     timestamptz NOT NULL CHECK (date_trunc('day', day, 'UTC') = day),
  device_id               text NOT NULL,
  model                   text NOT NULL,
  node                    text NOT NULL,
  held_milli_seconds      bigint NOT NULL,
  used_milli_seconds      bigint NOT NULL,
  observed_milli_seconds  bigint NOT NULL,
  PRIMARY KEY (cluster, day, device_id, model, node)
);
CREATE INDEX chargeback_device_daily_by_day ON chargeback_device_daily (day);
CREATE INDEX chargeback_device_daily_by_node ON chargeback_device_daily (node, day);

-- The hours of each cluster computed before this migration have lines but
-- no devices held: a node's used time there is unknown, not 0. They are
-- listed here and leave the list as ReplaceHours computes them again
-- (marked below: the optimizer recomputes the marks within its settle
-- window and drops older ones, whose hours take
-- `fleetcap-optimizer recompute --from T --to T`). DeviceUse says which
-- clusters have such an hour in the window, and the Assets view leaves
-- their nodes' and devices' used unset. A store created with this
-- migration never lists one.
CREATE TABLE chargeback_device_hours_missing (
  cluster  text NOT NULL,
  hour     timestamptz NOT NULL,
  PRIMARY KEY (cluster, hour)
);
INSERT INTO chargeback_device_hours_missing (cluster, hour)
SELECT DISTINCT cluster, hour FROM chargeback_hourly_by_model WHERE cluster <> '';
INSERT INTO chargeback_recompute (cluster, hour, reason)
SELECT cluster, hour, 'devices held kept' FROM chargeback_device_hours_missing
ON CONFLICT (cluster, hour) DO NOTHING;
