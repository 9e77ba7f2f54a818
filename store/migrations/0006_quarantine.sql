-- Inputs that could not be stored, set aside with their reason so that one
-- bad record costs only itself (DESIGN.md, "Trust and durability"). Every
-- ingest path writes here instead of retrying a record with the others.
-- `object_key` names the record (e.g. "Pod team-a/train-0 uid=..." or
-- "device gpu-0 minute 2026-01-01T00:00:00Z"); `payload` is the record as it
-- arrived, cut to a bounded size.
CREATE TABLE quarantine (
  id          bigserial PRIMARY KEY,
  source      text NOT NULL CHECK (source <> ''),
  cluster     text NOT NULL,
  object_key  text NOT NULL,
  reason      text NOT NULL CHECK (reason <> ''),
  payload     text NOT NULL DEFAULT '',
  at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX quarantine_by_source ON quarantine (source, cluster, at);
