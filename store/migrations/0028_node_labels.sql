-- The node labels that named a node's model and its pool, as the node
-- carried them ('' when none did, e.g. a replayed trace), so that a
-- scheduler's flavor can select exactly those nodes (docs/allocation.md,
-- "Schedulers"). The pool's value is `pool`; the model's raw value is kept
-- because the stored model is normalised (e.g. "A100-SXM4-40GB" from
-- "NVIDIA-A100-SXM4-40GB").
ALTER TABLE nodes
  ADD COLUMN model_label_key   text NOT NULL DEFAULT '',
  ADD COLUMN model_label_value text NOT NULL DEFAULT '',
  ADD COLUMN pool_label_key    text NOT NULL DEFAULT '';
