import { useMemo, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { fleetSummary, pendingDemand } from '../../api/endpoints';
import { useSession } from '../../auth/session';
import { Chart } from '../../components/Chart';
import { QueryView } from '../../components/QueryView';
import { TimeRangePicker } from '../../components/TimeRangePicker';
import { useTimeRange } from '../../time/useTimeRange';
import { stackedOption } from './capacityChart';
import { heatCells, heatmapOption } from './heatmapChart';
import { fleetView, heatQuery, seriesQuery } from './fleetView';
import { PendingTable } from './PendingTable';
import { SnapshotTable } from './SnapshotTable';

export default function FleetPage() {
  const range = useTimeRange();
  const { scope } = useSession();
  const [params, setParams] = useSearchParams();
  const view = fleetView(params, range, scope);
  const { isTeam, allowedGroups, allowedFigures, groupBy, figure, resolution } = view;

  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    next.set(key, value);
    setParams(next, { replace: true });
  };

  // The /fleet route prefetches the main series (prefetchFleet.ts): usually it is in the cache already.
  const series = useQuery({ ...seriesQuery(view), placeholderData: keepPreviousData, enabled: scope !== null });
  // The heatmap's series is asked for once the main chart is drawn (or could
  // not be): it would otherwise share the server and the main thread with it.
  const [mainDrawn, setMainDrawn] = useState(false);
  const heat = useQuery({
    ...heatQuery(view),
    placeholderData: keepPreviousData,
    enabled: scope !== null && (mainDrawn || series.isError),
  });
  const summary = useQuery({ queryKey: ['fleet-summary'], queryFn: () => fleetSummary(), enabled: scope !== null && !isTeam });
  const pending = useQuery({ queryKey: ['pending'], queryFn: () => pendingDemand(), enabled: scope !== null });

  const stacked = useMemo(() => (series.data ? stackedOption(series.data, [groupBy], figure) : null), [series.data, groupBy, figure]);
  const heatmap = useMemo(() => {
    if (!heat.data) return null;
    return isTeam
      ? heatmapOption(
          heatCells(heat.data, (_g, startMs) => new Date(startMs).toISOString().slice(0, 10), (g) => g.team || '(none)', 'held'),
          'day',
          'team',
          'held',
        )
      : heatmapOption(heatCells(heat.data, (g) => g.model || '(none)', (g) => g.cluster || '(none)', 'capacity'), 'model', 'cluster', 'capacity');
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
            {allowedFigures.map((f) => (
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
              onReady={() => setMainDrawn(true)}
            />
          )
        }
      </QueryView>

      <h2>{isTeam ? 'Utilisation of held devices (% of held used), team × day' : 'Utilisation (% of capacity used), cluster × model'}</h2>
      <QueryView query={heat} what="the utilisation heatmap" height={280}>
        {() =>
          heatmap && (
            <Chart
              label={isTeam ? 'Per team and day, the share of held device time used' : 'Per cluster and model, the share of capacity used'}
              option={heatmap}
              height={280}
              testId="fleet-heatmap"
              renderer="svg"
            />
          )
        }
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
