import { useMemo } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { capacitySeries, fleetSummary, pendingDemand } from '../../api/endpoints';
import { useSession } from '../../auth/session';
import { Chart } from '../../components/Chart';
import { QueryView } from '../../components/QueryView';
import { TimeRangePicker } from '../../components/TimeRangePicker';
import { rangeHours } from '../../time/range';
import { useTimeRange } from '../../time/useTimeRange';
import { heatCells, heatmapOption, stackedOption, type Figure, type GroupKey } from './capacityChart';
import { PendingTable } from './PendingTable';
import { wholeDays } from './dayWindow';
import { SnapshotTable } from './SnapshotTable';

const groupKeys: GroupKey[] = ['model', 'cluster', 'team'];
const figures: Figure[] = ['held', 'used', 'capacity'];

function choice<T extends string>(value: string | null, allowed: T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

export default function FleetPage() {
  const range = useTimeRange();
  const { scope } = useSession();
  const [params, setParams] = useSearchParams();
  // A team token sees capacity series only grouped by team (its subtree).
  const isTeam = scope?.team != null;
  const allowedGroups = isTeam ? (['team'] as GroupKey[]) : groupKeys;
  const groupBy = choice(params.get('group'), allowedGroups, allowedGroups[0]!);
  const figure = choice(params.get('figure'), isTeam ? (['held', 'used'] as Figure[]) : figures, 'held');
  // Hourly up to 90 days; beyond that daily buckets keep the chart readable.
  const resolution = rangeHours(range) > 2160 ? 'day' : 'hour';

  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    next.set(key, value);
    setParams(next, { replace: true });
  };

  const seriesWindow = resolution === 'day' ? wholeDays(range) : range;
  const series = useQuery({
    queryKey: ['capacity', seriesWindow.start, seriesWindow.end, resolution, groupBy],
    queryFn: () => capacitySeries({ start: seriesWindow.start, end: seriesWindow.end, resolution, group_by: groupBy }),
    placeholderData: keepPreviousData,
    enabled: scope !== null,
  });
  // The heatmap sums the whole range (or per day): daily buckets are enough
  // and 24 times fewer than hourly ones.
  const heatGroup = isTeam ? 'team' : 'cluster,model';
  const heatWindow = wholeDays(range);
  const heat = useQuery({
    queryKey: ['capacity', heatWindow.start, heatWindow.end, 'day', heatGroup],
    queryFn: () => capacitySeries({ start: heatWindow.start, end: heatWindow.end, resolution: 'day', group_by: heatGroup }),
    placeholderData: keepPreviousData,
    enabled: scope !== null,
  });
  const summary = useQuery({ queryKey: ['fleet-summary'], queryFn: () => fleetSummary(), enabled: scope !== null && !isTeam });
  const pending = useQuery({ queryKey: ['pending'], queryFn: () => pendingDemand(), enabled: scope !== null });

  const stacked = useMemo(() => (series.data ? stackedOption(series.data, [groupBy], figure) : null), [series.data, groupBy, figure]);
  const heatmap = useMemo(() => {
    if (!heat.data) return null;
    return isTeam
      ? heatmapOption(heatCells(heat.data, (_g, b) => (b.start ?? '').slice(0, 10), (g) => g.team || '(none)', 'held'), 'day', 'team')
      : heatmapOption(heatCells(heat.data, (g) => g.model || '(none)', (g) => g.cluster || '(none)', 'capacity'), 'model', 'cluster');
  }, [heat.data, isTeam]);

  return (
    <section>
      <h1>Fleet</h1>
      <TimeRangePicker range={range} />

      <h2>Capacity, held and used over time</h2>
      <div className="controls">
        <label>
          Group by
          <select value={groupBy} onChange={(e) => setParam('group', e.target.value)}>
            {allowedGroups.map((g) => (
              <option key={g} value={g}>
                {g}
              </option>
            ))}
          </select>
        </label>
        <label>
          Stacked figure
          <select value={figure} onChange={(e) => setParam('figure', e.target.value)}>
            {(isTeam ? (['held', 'used'] as Figure[]) : figures).map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </label>
      </div>
      <QueryView query={series} what="the capacity series" height={360}>
        {() =>
          stacked && (
            <Chart
              label={`${figure} device-hours per ${resolution} by ${groupBy}, stacked`}
              option={stacked}
              height={360}
              testId="fleet-capacity-chart"
            />
          )
        }
      </QueryView>

      <h2>{isTeam ? 'Utilisation of held devices, team × day' : 'Utilisation, cluster × model'}</h2>
      <QueryView query={heat} what="the utilisation heatmap" height={280}>
        {() => heatmap && <Chart label="utilisation heatmap" option={heatmap} height={280} testId="fleet-heatmap" />}
      </QueryView>

      <h2>Now</h2>
      {isTeam ? (
        <p>The fleet-wide snapshot is for planners; your team&apos;s holds are in the charts above and on Chargeback.</p>
      ) : (
        <QueryView query={summary} what="the fleet snapshot" height={160}>
          {(data) => <SnapshotTable summary={data} />}
        </QueryView>
      )}

      <h2>Unmet demand</h2>
      <QueryView query={pending} what="the pending accelerator pods" height={120}>
        {(data) => <PendingTable demand={data} />}
      </QueryView>
    </section>
  );
}
