-- What the optimizer remembers between passes besides its watermark: the
-- newest policy version it has seen, so that a new version marks the hours
-- it changes for recomputation once. One row.
CREATE TABLE optimizer_state (
  id                   boolean PRIMARY KEY DEFAULT true CHECK (id),
  last_policy_version  integer NOT NULL CHECK (last_policy_version >= 0),
  updated_at           timestamptz NOT NULL DEFAULT now()
);
