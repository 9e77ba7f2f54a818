// The Chargeback page's filters: one cluster, one model, one line kind (or
// all), in the URL; the choices are the clusters and models the window has
// lines for (at the page's drill level), so a filter never selects nothing.
import { useQuery } from '@tanstack/react-query';
import { chargeback } from '../../api/endpoints';
import type { Drill } from './drill';

const lineKinds = ['workload', 'idle', 'shared', 'fixed'];

export function ChargebackFilters({
  drill,
  range,
  enabled,
  onChange,
}: {
  drill: Drill;
  range: { start: string; end: string };
  enabled: boolean;
  onChange: (key: 'cluster' | 'model' | 'line_kind', value: string | null) => void;
}) {
  // Without the filters themselves, so that every choice stays offered.
  const query = {
    start: range.start,
    end: range.end,
    group_by: 'cluster,model',
    resolution: 'none',
    team: drill.team ?? undefined,
    namespace: drill.namespace ?? undefined,
  };
  const choices = useQuery({ queryKey: ['chargeback', query], queryFn: () => chargeback(query), enabled });
  const distinct = (field: 'cluster' | 'model') =>
    [...new Set((choices.data?.lines ?? []).map((line) => line[field] ?? '').filter(Boolean))].sort();
  const select = (key: 'cluster' | 'model' | 'line_kind', label: string, options: string[]) => {
    const value = drill.filters[key] ?? '';
    // A value from the URL stays selectable even before the choices arrive.
    const all = value && !options.includes(value) ? [value, ...options] : options;
    return (
      <label>
        {label}
        <select value={value} data-testid={`filter-${key}`} onChange={(e) => onChange(key, e.target.value || null)}>
          <option value="">All</option>
          {all.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </label>
    );
  };
  return (
    <div className="controls" role="group" aria-label="Filters">
      {select('cluster', 'Cluster', distinct('cluster'))}
      {select('model', 'Model', distinct('model'))}
      {select('line_kind', 'Line kind', lineKinds)}
    </div>
  );
}
