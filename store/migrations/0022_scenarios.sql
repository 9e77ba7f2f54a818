-- Saved what-if scenarios (docs/whatif.md, store/scenario_repository.h): a
-- planner's scenario document and the comparison it gave when saved, kept
-- for later comparison. Written only by the API on an explicit save; a run
-- alone writes nothing. The result is the API's ScenarioComparison as
-- proto3 JSON, so a saved result reads back exactly as it was served.

CREATE TABLE scenarios (
  scenario_id bigserial PRIMARY KEY,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 128),
  document text NOT NULL CHECK (length(document) BETWEEN 1 AND 65536),
  result jsonb NOT NULL CHECK (jsonb_typeof(result) = 'object'),
  policy_version integer NOT NULL CHECK (policy_version >= 0),
  saved_at timestamptz NOT NULL,
  saved_by text NOT NULL
);

CREATE INDEX scenarios_name ON scenarios (name, scenario_id);
