-- Teams are resolved when facts are read, with the policy version in force at
-- the time in question (policy/team_resolution.h); the ingest keeps only the
-- evidence. pods.team now holds the team the pod's own label names ('' when
-- it has none), which counts only where the policy trusts pod labels; the
-- namespace's team labels and annotations are kept here, one row per key.
COMMENT ON COLUMN pods.team IS
  'evidence: the team the pod''s own label names ('''' when none); resolved with the policy when read';
COMMENT ON COLUMN workloads.team IS 'evidence: the team label of the pod last seen of this workload';

CREATE TABLE namespace_labels (
  cluster    text NOT NULL REFERENCES clusters ON DELETE CASCADE,
  namespace  text NOT NULL CHECK (namespace <> ''),
  source     text NOT NULL CHECK (source IN ('label', 'annotation')),
  key        text NOT NULL CHECK (key <> ''),
  value      text NOT NULL,
  PRIMARY KEY (cluster, namespace, source, key)
);

-- Never written: the policy document is the one source of team resolution.
DROP TABLE namespace_teams;
