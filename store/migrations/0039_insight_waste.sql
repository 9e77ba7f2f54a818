-- Waste and efficiency as the optimizer computes them (docs/insights.md,
-- "Waste" and "Efficiency"; store/insight_waste_repository.h).
--
-- An idle run is stored in pieces, one row per pod and UTC hour of the run:
-- any window of whole hours sums exactly from the rows inside it, and its
-- runs are the pieces of a pod that follow one another without a gap (two
-- runs of a pod never touch: a minute that is not idle lies between them).
-- A run's money is rounded once and spread over its pieces by largest
-- remainder, so the pieces add up to it.
CREATE TABLE insight_waste_runs (
  cluster                 text NOT NULL,
  hour                    timestamptz NOT NULL CHECK (date_trunc('hour', hour, 'UTC') = hour),
  pod_uid                 text NOT NULL,
  start_at                timestamptz NOT NULL,
  end_at                  timestamptz NOT NULL,
  namespace               text NOT NULL,
  team                    text NOT NULL,
  workload                text NOT NULL,
  model                   text NOT NULL,
  devices_milli           bigint NOT NULL CHECK (devices_milli > 0),
  wasted_milli_seconds    bigint NOT NULL CHECK (wasted_milli_seconds >= 0),
  wasted_cost_micro       bigint NOT NULL CHECK (wasted_cost_micro >= 0),
  activity_milli_seconds  bigint NOT NULL CHECK (activity_milli_seconds >= 0),
  sm_milli_seconds        bigint NOT NULL CHECK (sm_milli_seconds >= 0),
  CHECK (hour <= start_at AND start_at < end_at AND end_at <= hour + interval '1 hour'),
  PRIMARY KEY (cluster, hour, pod_uid, start_at)
);
-- A window of the fleet reads by hour, not by cluster.
CREATE INDEX insight_waste_runs_by_hour ON insight_waste_runs (hour);

-- Each workload's held device time per cluster and hour, how much of it had a
-- reading (the rest is unknown) and how much was active, by SM activity where
-- read, else by duty cycle; and the device-minutes read with both signals,
-- with their held time and its duty cycle and SM activity, for the
-- busy-but-light flag.
CREATE TABLE insight_workload_hours (
  cluster                    text NOT NULL,
  hour                       timestamptz NOT NULL CHECK (date_trunc('hour', hour, 'UTC') = hour),
  team                       text NOT NULL,
  namespace                  text NOT NULL,
  workload                   text NOT NULL,
  held_milli_seconds         bigint NOT NULL CHECK (held_milli_seconds > 0),
  observed_milli_seconds     bigint NOT NULL CHECK (observed_milli_seconds BETWEEN 0 AND held_milli_seconds),
  active_milli_seconds       bigint NOT NULL CHECK (active_milli_seconds BETWEEN 0 AND observed_milli_seconds),
  sm_observed_milli_seconds  bigint NOT NULL CHECK (sm_observed_milli_seconds BETWEEN 0 AND observed_milli_seconds),
  both_minutes               bigint NOT NULL CHECK (both_minutes >= 0),
  both_held_milli_seconds    bigint NOT NULL CHECK (both_held_milli_seconds >= 0),
  both_duty_milli_seconds    bigint NOT NULL CHECK (both_duty_milli_seconds >= 0),
  both_sm_milli_seconds      bigint NOT NULL CHECK (both_sm_milli_seconds >= 0),
  PRIMARY KEY (cluster, hour, team, namespace, workload)
);
CREATE INDEX insight_workload_hours_by_hour ON insight_workload_hours (hour, team);

-- The waste pass's progress: per cluster, every hour before `through` is computed.
CREATE TABLE insight_waste_watermarks (
  cluster     text PRIMARY KEY,
  through     timestamptz NOT NULL CHECK (date_trunc('hour', through, 'UTC') = through),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- Hours to compute again: every hour the chargeback is marked to compute
-- again (late telemetry, a corrected inventory, a new price) is marked here
-- too (fleetcap_mark_waste_recompute), with when, so the pass removes only
-- the marks it read.
CREATE TABLE insight_waste_recompute (
  cluster   text NOT NULL,
  hour      timestamptz NOT NULL CHECK (date_trunc('hour', hour, 'UTC') = hour),
  noted_at  timestamptz NOT NULL,
  PRIMARY KEY (cluster, hour)
);

-- The function and its triggers as first defined; store/functions/
-- fleetcap_mark_waste_recompute.sql holds the definition in force.
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
