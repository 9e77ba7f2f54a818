-- The demand a recommendation was computed from is the measured demand plus
-- the policy's headroom for growth and queueing (docs/allocation.md,
-- "Measured demand"); the plain measured figure is kept beside it, so that
-- what was measured and what was allocated for can both be shown. NULL:
-- nothing was measured (rows stored before this column, or a set solved
-- offline from declared demand).
ALTER TABLE allocation_recommendations
  ADD COLUMN measured_demand_milli bigint CHECK (measured_demand_milli >= 0);
