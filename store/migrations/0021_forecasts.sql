-- Forecasts as fleetcap-optimizer stores them once a UTC day and the API
-- serves them (store/forecast_repository.h, docs/planning.md "Serving
-- forecasts"). A run is the hours its history covers and the hours it
-- forecasts; each series of it (a team's or a flavor's total held or pending
-- demand, or a flavor's capacity) is one row holding its points as arrays of
-- milli-devices per hour, so 90 days of history and 90 days ahead are three
-- arrays (compressed by TOAST) rather than thousands of rows.

CREATE TABLE forecast_runs (
  run_id          bigserial PRIMARY KEY,
  computed_at     timestamptz NOT NULL,
  history_start   timestamptz NOT NULL CHECK (date_trunc('hour', history_start, 'UTC') = history_start),
  -- The end of the history and the first forecast hour.
  forecast_start  timestamptz NOT NULL CHECK (date_trunc('hour', forecast_start, 'UTC') = forecast_start),
  horizon_hours   integer NOT NULL CHECK (horizon_hours BETWEEN 1 AND 2160),
  CHECK (history_start <= forecast_start)
);

CREATE TABLE forecast_series (
  run_id           bigint NOT NULL REFERENCES forecast_runs ON DELETE CASCADE,
  flavor           text NOT NULL CHECK (flavor <> ''),
  team             text NOT NULL,  -- '' for the flavor's total (and its capacity)
  what             text NOT NULL CHECK (what IN ('held', 'pending', 'capacity')),
  model            text NOT NULL CHECK (model <> ''),
  fit              jsonb NOT NULL CHECK (jsonb_typeof(fit) = 'object'),
  fallback_reason  text NOT NULL,
  -- Milli-devices per hour: history from the run's history_start, p50 and
  -- p90 from its forecast_start over its horizon.
  history          bigint[] NOT NULL,
  p50              bigint[] NOT NULL,
  p90              bigint[] NOT NULL,
  -- The first UTC day (its midnight) the p50 / p90 forecast exceeds the
  -- flavor's capacity; NULL: not within the horizon, or not applicable.
  exhaustion_p50   timestamptz,
  exhaustion_p90   timestamptz,
  CHECK (team = '' OR what <> 'capacity'),
  PRIMARY KEY (run_id, flavor, team, what)
);
