-- Every minute read back from rest bit for bit against the rows written
-- (storage_at_rest.sql, storage_at_rest_decimals.sql; bench_minutes_written,
-- storage_at_rest_before.sql).
SELECT count(*) AS rows_differing FROM (
  (SELECT cluster, device_id, pod_uid, minute, float8send(util_mean), float8send(util_max), memory_used_bytes,
          float8send(power_watts), float8send(energy_joules), samples, node, model, namespace, pod, memory_total_bytes,
          float8send(sm_active_mean), float8send(tensor_active_mean), float8send(dram_active_mean)
     FROM bench_minutes_written
   EXCEPT ALL
   SELECT cluster, device_id, pod_uid, minute, float8send(util_mean), float8send(util_max), memory_used_bytes,
          float8send(power_watts), float8send(energy_joules), samples, node, model, namespace, pod, memory_total_bytes,
          float8send(sm_active_mean), float8send(tensor_active_mean), float8send(dram_active_mean)
     FROM fleetcap_usage_minutes('bench', '-infinity', 'infinity'))
  UNION ALL
  (SELECT cluster, device_id, pod_uid, minute, float8send(util_mean), float8send(util_max), memory_used_bytes,
          float8send(power_watts), float8send(energy_joules), samples, node, model, namespace, pod, memory_total_bytes,
          float8send(sm_active_mean), float8send(tensor_active_mean), float8send(dram_active_mean)
     FROM fleetcap_usage_minutes('bench', '-infinity', 'infinity')
   EXCEPT ALL
   SELECT cluster, device_id, pod_uid, minute, float8send(util_mean), float8send(util_max), memory_used_bytes,
          float8send(power_watts), float8send(energy_joules), samples, node, model, namespace, pod, memory_total_bytes,
          float8send(sm_active_mean), float8send(tensor_active_mean), float8send(dram_active_mean)
     FROM bench_minutes_written)) d \gset
\echo 'at rest: ' :rows_differing ' rows differing from the ' :rows_in_usage_minute ' written'
\if :rows_differing
  \echo 'storage at rest: the rows read back are not the rows written'
  SELECT 1 / 0;
\endif
