-- Allocation runs as the optimizer stores them and the API serves them
-- (store/allocation_run_repository.h, issue 13). Schema v1 sketched the
-- tables with a nominal quota and a floating-point expected share; a run now
-- keeps what it was computed from (inputs) and, per team and flavor, the
-- demand, guarantee, recommendation, limits and what bound it. No release
-- wrote the v1 tables, so rows they might hold are carried over with what
-- they lack set to zero and `fair_share`.

ALTER TABLE allocation_runs ADD COLUMN inputs jsonb NOT NULL DEFAULT '{}'::jsonb
  CHECK (jsonb_typeof(inputs) = 'object');
UPDATE allocation_runs SET policy_version = 0 WHERE policy_version IS NULL;
ALTER TABLE allocation_runs ALTER COLUMN policy_version SET NOT NULL,
  ADD CONSTRAINT allocation_runs_policy_version_check CHECK (policy_version >= 0);
-- The time of a run is the optimizer's clock, always given.
ALTER TABLE allocation_runs ALTER COLUMN computed_at DROP DEFAULT;

-- The nominal quota is the recommendation (Kueue's nominalQuota).
ALTER TABLE allocation_recommendations RENAME COLUMN nominal_milli TO recommended_milli;
ALTER TABLE allocation_recommendations RENAME CONSTRAINT allocation_recommendations_nominal_milli_check
  TO allocation_recommendations_recommended_milli_check;
-- Derivable from the recommendation and the capacity, and not a float in a stored result.
ALTER TABLE allocation_recommendations DROP COLUMN expected_share;
ALTER TABLE allocation_recommendations
  ADD COLUMN demand_milli bigint NOT NULL DEFAULT 0 CHECK (demand_milli >= 0),
  ADD COLUMN guarantee_milli bigint NOT NULL DEFAULT 0 CHECK (guarantee_milli >= 0),
  ADD COLUMN bound_by text NOT NULL DEFAULT 'fair_share'
    CHECK (bound_by IN ('demand', 'guarantee', 'borrowing_limit', 'lending_limit', 'fair_share'));
ALTER TABLE allocation_recommendations
  ALTER COLUMN demand_milli DROP DEFAULT,
  ALTER COLUMN guarantee_milli DROP DEFAULT,
  ALTER COLUMN bound_by DROP DEFAULT;
-- borrowing_limit_milli stays nullable: NULL is unlimited. A lending limit
-- is always known (absent in the policy: the whole guarantee).
UPDATE allocation_recommendations SET lending_limit_milli = 0 WHERE lending_limit_milli IS NULL;
ALTER TABLE allocation_recommendations ALTER COLUMN lending_limit_milli SET NOT NULL;
