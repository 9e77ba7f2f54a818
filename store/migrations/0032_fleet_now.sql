-- The fleet summary "now" kept, not recomputed (PgLiveInventoryRepository::
-- SummarizeAt; docs/benchmarks.md, "Fleet summary over a year of history").
-- fleet_now: per (cluster, model), the open device rows (in_service_to IS
-- NULL) and the milli-devices their open holds (held_to IS NULL) hold, as
-- the summary counts them: a device row's held is the sum of the open holds
-- on its (cluster, device_id).
-- fleet_now_horizon: per cluster, the latest instant any row of `devices` or
-- `holds` ever written names (a start, or an end). At an instant at or after
-- it every row began and every closed row has ended, so what is current
-- then is exactly the open rows: fleet_now. Earlier instants (and a row
-- written with a time still to come) read the facts (pg_instant_sql.h).
-- Both are kept by statement triggers on devices and holds in the
-- transaction that writes the facts; the functions and triggers below are
-- as store/functions/fleetcap_fleet_now_*.sql first defined them (those
-- files hold the definitions in force). Filled from the facts at the end,
-- in this transaction, so no write goes uncounted.
CREATE TABLE fleet_now (
  cluster text NOT NULL,
  model text NOT NULL,
  devices bigint NOT NULL,
  held_milli bigint NOT NULL,
  PRIMARY KEY (cluster, model)
);
-- Who holds devices "now" (PgTeamFactsRepository::HoldersAt at or after the
-- horizon): each live pod's namespace and team by its key, from an index of
-- the pods in service only, not the heap and key of a year of pods.
CREATE INDEX pods_live_holders ON pods (cluster, pod_uid) INCLUDE (namespace, team) WHERE deleted_at IS NULL;
CREATE TABLE fleet_now_horizon (
  cluster text PRIMARY KEY,
  horizon timestamptz NOT NULL
);

-- The fleet summary "now", kept (migration 0032): a devices statement's change to fleet_now.
-- Adds, per (cluster, device_id, model) given, n open device rows (n < 0:
-- removed) with the held of the device's open holds.
CREATE OR REPLACE FUNCTION fleetcap_fleet_now_add_devices(clusters text[], device_ids text[], models text[],
                                                          ns bigint[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO fleet_now AS f (cluster, model, devices, held_milli)
  SELECT d.cluster, d.model, sum(d.n), sum(d.n * coalesce(h.milli, 0))
    FROM unnest(clusters, device_ids, models, ns) AS d(cluster, device_id, model, n)
    LEFT JOIN LATERAL (SELECT sum(milli) AS milli FROM holds
                        WHERE holds.cluster = d.cluster AND holds.device_id = d.device_id
                          AND holds.held_to IS NULL) h ON true
   GROUP BY d.cluster, d.model
  HAVING sum(d.n) <> 0 OR sum(d.n * coalesce(h.milli, 0)) <> 0
   ORDER BY d.cluster, d.model
  ON CONFLICT (cluster, model) DO UPDATE
    SET devices = f.devices + EXCLUDED.devices, held_milli = f.held_milli + EXCLUDED.held_milli
$$;

-- The fleet summary "now", kept (migration 0032): a holds statement's change to fleet_now.
-- Adds, per (cluster, device_id) given, milli held by open holds (< 0:
-- released) to the model of each open row of the device.
CREATE OR REPLACE FUNCTION fleetcap_fleet_now_add_holds(clusters text[], device_ids text[], millis bigint[])
  RETURNS void LANGUAGE sql AS $$
  INSERT INTO fleet_now AS f (cluster, model, devices, held_milli)
  SELECT d.cluster, d.model, 0, sum(h.milli)
    FROM (SELECT cluster, device_id, sum(milli) AS milli
            FROM unnest(clusters, device_ids, millis) AS c(cluster, device_id, milli)
           GROUP BY cluster, device_id HAVING sum(milli) <> 0) h
    JOIN devices d ON d.cluster = h.cluster AND d.device_id = h.device_id AND d.in_service_to IS NULL
   GROUP BY d.cluster, d.model
   ORDER BY d.cluster, d.model
  ON CONFLICT (cluster, model) DO UPDATE SET held_milli = f.held_milli + EXCLUDED.held_milli
$$;

-- The fleet summary "now", kept (migration 0032): fleet_now_horizon.
-- Moves each cluster's horizon up to the latest instant given.
CREATE OR REPLACE FUNCTION fleetcap_fleet_now_reach(clusters text[], instants timestamptz[]) RETURNS void
  LANGUAGE sql AS $$
  INSERT INTO fleet_now_horizon AS f (cluster, horizon)
  SELECT cluster, max(instant) FROM unnest(clusters, instants) AS c(cluster, instant)
   WHERE instant IS NOT NULL GROUP BY cluster ORDER BY cluster
  ON CONFLICT (cluster) DO UPDATE SET horizon = EXCLUDED.horizon WHERE f.horizon < EXCLUDED.horizon
$$;

-- The fleet summary "now", kept (migration 0032): both tables filled from the facts.
-- Both tables again from the facts: every open device row with the held of
-- its device's open holds, and each cluster's latest start or end.
CREATE OR REPLACE FUNCTION fleetcap_fleet_now_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM fleet_now;
  DELETE FROM fleet_now_horizon;
  INSERT INTO fleet_now (cluster, model, devices, held_milli)
  SELECT d.cluster, d.model, count(*), coalesce(sum(h.milli), 0)
    FROM devices d
    LEFT JOIN (SELECT cluster, device_id, sum(milli) AS milli FROM holds WHERE held_to IS NULL
                GROUP BY cluster, device_id) h ON h.cluster = d.cluster AND h.device_id = d.device_id
   WHERE d.in_service_to IS NULL
   GROUP BY d.cluster, d.model;
  INSERT INTO fleet_now_horizon (cluster, horizon)
  SELECT cluster, max(instant) FROM (
    SELECT cluster, greatest(in_service_from, in_service_to) AS instant FROM devices
    UNION ALL
    SELECT cluster, greatest(held_from, held_to) FROM holds) AS rows
   GROUP BY cluster;
$$;

-- The fleet summary "now", kept (migration 0032): fleet_now per (cluster,
-- model), the open device rows and the milli-devices their open holds hold;
-- fleet_now_horizon per cluster, the latest start or end any row written
-- names. Statement triggers on devices and holds keep both in the
-- transaction that writes the facts, from the rows each statement changed:
--   a devices statement takes each open row it removed (updated or deleted)
--   out of its model, with what the open holds on that device hold, and
--   puts each open row it left in, likewise (holds do not change meanwhile);
--   a holds statement sums, per device, the open holds it added less those
--   it removed, and adds that to the model of each open row of the device.
-- fleetcap_fleet_now_rebuild fills both from the facts when applied.

-- A devices statement's change to fleet_now and fleet_now_horizon.
CREATE OR REPLACE FUNCTION fleetcap_fleet_now_devices_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM fleetcap_fleet_now_reach(array_agg(cluster), array_agg(greatest(in_service_from, in_service_to)))
       FROM new_devices;
    PERFORM fleetcap_fleet_now_add_devices(array_agg(cluster), array_agg(device_id), array_agg(model),
                                           array_agg(1::bigint))
       FROM new_devices WHERE in_service_to IS NULL;
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM fleetcap_fleet_now_reach(array_agg(cluster), array_agg(greatest(in_service_from, in_service_to)))
       FROM new_devices;
    PERFORM fleetcap_fleet_now_add_devices(array_agg(cluster), array_agg(device_id), array_agg(model), array_agg(n))
       FROM (SELECT cluster, device_id, model, -1::bigint AS n FROM old_devices WHERE in_service_to IS NULL
             UNION ALL
             SELECT cluster, device_id, model, 1::bigint FROM new_devices WHERE in_service_to IS NULL) AS c;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM fleetcap_fleet_now_add_devices(array_agg(cluster), array_agg(device_id), array_agg(model),
                                           array_agg(-1::bigint))
       FROM old_devices WHERE in_service_to IS NULL;
  ELSE
    PERFORM fleetcap_fleet_now_rebuild();
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER fleet_now_devices_inserted AFTER INSERT ON devices
  REFERENCING NEW TABLE AS new_devices FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_fleet_now_devices_changed();
CREATE OR REPLACE TRIGGER fleet_now_devices_updated AFTER UPDATE ON devices
  REFERENCING OLD TABLE AS old_devices NEW TABLE AS new_devices
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_fleet_now_devices_changed();
CREATE OR REPLACE TRIGGER fleet_now_devices_deleted AFTER DELETE ON devices
  REFERENCING OLD TABLE AS old_devices FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_fleet_now_devices_changed();
CREATE OR REPLACE TRIGGER fleet_now_devices_truncated AFTER TRUNCATE ON devices
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_fleet_now_devices_changed();

-- The fleet summary "now", kept (migration 0032; fleetcap_fleet_now_devices_changed.sql):
-- a holds statement's change to fleet_now and fleet_now_horizon.
CREATE OR REPLACE FUNCTION fleetcap_fleet_now_holds_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM fleetcap_fleet_now_reach(array_agg(cluster), array_agg(greatest(held_from, held_to))) FROM new_holds;
    PERFORM fleetcap_fleet_now_add_holds(array_agg(cluster), array_agg(device_id), array_agg(milli::bigint))
       FROM new_holds WHERE held_to IS NULL;
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM fleetcap_fleet_now_reach(array_agg(cluster), array_agg(greatest(held_from, held_to))) FROM new_holds;
    PERFORM fleetcap_fleet_now_add_holds(array_agg(cluster), array_agg(device_id), array_agg(milli))
       FROM (SELECT cluster, device_id, -milli::bigint AS milli FROM old_holds WHERE held_to IS NULL
             UNION ALL
             SELECT cluster, device_id, milli::bigint FROM new_holds WHERE held_to IS NULL) AS c;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM fleetcap_fleet_now_add_holds(array_agg(cluster), array_agg(device_id), array_agg(-milli::bigint))
       FROM old_holds WHERE held_to IS NULL;
  ELSE
    PERFORM fleetcap_fleet_now_rebuild();
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER fleet_now_holds_inserted AFTER INSERT ON holds
  REFERENCING NEW TABLE AS new_holds FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_fleet_now_holds_changed();
CREATE OR REPLACE TRIGGER fleet_now_holds_updated AFTER UPDATE ON holds
  REFERENCING OLD TABLE AS old_holds NEW TABLE AS new_holds
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_fleet_now_holds_changed();
CREATE OR REPLACE TRIGGER fleet_now_holds_deleted AFTER DELETE ON holds
  REFERENCING OLD TABLE AS old_holds FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_fleet_now_holds_changed();
CREATE OR REPLACE TRIGGER fleet_now_holds_truncated AFTER TRUNCATE ON holds
  FOR EACH STATEMENT EXECUTE FUNCTION fleetcap_fleet_now_holds_changed();

SELECT fleetcap_fleet_now_rebuild();
