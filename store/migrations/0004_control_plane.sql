-- Control plane: who created each token, and the version a policy was
-- applied on top of (NULL for the first), so history shows rollbacks and
-- races plainly.
ALTER TABLE api_tokens ADD COLUMN created_by text NOT NULL DEFAULT '';
ALTER TABLE policies ADD COLUMN base_version integer;
CREATE INDEX audit_log_by_action ON audit_log (action, at);
