// Cost over time on the Chargeback page: the window's cost per hour, day or
// month, stacked by a grouping the planner picks, within the page's drill
// (team, namespace) and filters (cluster, model, line kind), with idle
// capacity as the page shows it (idleView.ts);
// per bucket or cumulative. The choices live in the URL
// (`stack=`, `res=`, `cumulative=1`). Under the chart, each series' total:
// the chart's numbers as text, adding up to the API's total.
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { chargeback, chargebackExport } from '../../api/endpoints';
import { Chart, preloadChart } from '../../components/Chart';
import { MAX_GROUPS, OTHER_COLOUR, seriesColour } from '../../components/palette';
import { downloadText } from '../../components/download';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Figure } from '../../components/Figure';
import { QueryView } from '../../components/QueryView';
import { formatMoney } from '../../format/numbers';
import {
  costSeries,
  cumulative,
  otherGroup,
  resolutionsFor,
  stackFields,
  stackLabels,
  type CostSeries,
  type Resolution,
  type StackField,
} from './costSeries';
import type { Drill } from './drill';
import { StackFieldOptions } from './StackFieldOptions';
import { reportWithIdle, type IdleMode } from './idleView';

// Every group its own colour up to the palette's limit; the rest are summed as "other".
const maxSeries = MAX_GROUPS + 1;

// The chart chunk is asked for as soon as this page's chunk is evaluated, so
// that it loads beside the page's data rather than after it. (Not from a
// route loader: a loader runs again on every change of the URL, and the
// table's search box writes the URL on each key.)
preloadChart();

const defaultStack = (drill: Drill): StackField => (drill.level === 'team' ? 'team' : drill.level);

function bucketLabel(start: string, resolution: Resolution): string {
  if (resolution === 'month') return start.slice(0, 7);
  if (resolution === 'day') return start.slice(0, 10);
  return `${start.slice(5, 10)} ${start.slice(11, 16)}`;
}

// Bars per bucket; running sums as stacked areas.
function chartOption(series: CostSeries, resolution: Resolution, currency: string, running: boolean) {
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: number) => `${currency} ${v.toFixed(2)}` },
    legend: { type: 'scroll', top: 0 },
    grid: { left: 72, right: 16, top: 36, bottom: 32 },
    xAxis: { type: 'category', data: series.buckets.map((b) => bucketLabel(b, resolution)) },
    yAxis: { type: 'value', name: currency },
    series: series.groups.map((group, i) => ({
      name: group.name,
      itemStyle: { color: group.name === otherGroup ? OTHER_COLOUR : seriesColour(i) },
      type: running ? 'line' : 'bar',
      stack: 'cost',
      areaStyle: running ? {} : undefined,
      showSymbol: false,
      data: group.perBucketMicro.map((micro) => Number(micro) / 1e6),
    })),
  };
}

// `enabled`: whether the page may ask yet (its token's scope known and the
// drill inside it).
export function CostOverTime({
  drill,
  range,
  idleMode,
  enabled,
}: {
  drill: Drill;
  range: { start: string; end: string };
  idleMode: IdleMode;
  enabled: boolean;
}) {
  const [params, setParams] = useSearchParams();
  const stackParam = params.get('stack');
  const stack: StackField = (stackFields as readonly string[]).includes(stackParam ?? '')
    ? (stackParam as StackField)
    : defaultStack(drill);
  const { allowed, fallback } = resolutionsFor(range);
  const resolution: Resolution = (allowed as string[]).includes(params.get('res') ?? '') ? (params.get('res') as Resolution) : fallback;
  const running = params.get('cumulative') === '1';

  const query = {
    start: range.start,
    end: range.end,
    group_by: stack,
    resolution,
    team: drill.team ?? undefined,
    namespace: drill.namespace ?? undefined,
    ...drill.filters,
  };
  const report = useQuery({ queryKey: ['chargeback', query], queryFn: () => chargeback(query), enabled });
  const series = useMemo(
    () => {
      // Idle kept apart stays per model or cluster when stacked by one: what idle costs per model.
      const keptBy = stack === 'model' || stack === 'cluster' ? stack : undefined;
      return costSeries(report.data ? (reportWithIdle(report.data, idleMode, keptBy).lines ?? []) : [], stack, maxSeries);
    },
    [report.data, stack, idleMode],
  );
  const shown = useMemo(() => (running ? cumulative(series) : series), [series, running]);
  const currency = report.data?.currency || 'USD';
  const option = useMemo(() => chartOption(shown, resolution, currency, running), [shown, resolution, currency, running]);

  // The chart's lines as the API exports them (CSV, every micro-unit), at
  // its grouping and resolution; idle as billed whatever the page shows.
  const [exportError, setExportError] = useState<unknown>(null);
  const exportCsv = async () => {
    setExportError(null);
    try {
      downloadText(`chargeback-by-${stack}-per-${resolution}-${range.start.slice(0, 10)}.csv`, await chargebackExport('csv', query), 'text/csv');
    } catch (cause) {
      setExportError(cause);
    }
  };

  const set = (key: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value === null) next.delete(key);
    else next.set(key, value);
    setParams(next);
  };

  return (
    <section aria-labelledby="cost-over-time">
      <h2 id="cost-over-time">Cost over time</h2>
      <div className="controls">
        <label>
          Stack by
          <select value={stack} onChange={(e) => set('stack', e.target.value)} data-testid="cost-stack">
            <StackFieldOptions />
          </select>
        </label>
        <label>
          Per
          <select value={resolution} onChange={(e) => set('res', e.target.value)} data-testid="cost-resolution">
            {allowed.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input type="checkbox" checked={running} onChange={(e) => set('cumulative', e.target.checked ? '1' : null)} />
          Cumulative
        </label>
        <button type="button" disabled={!enabled} onClick={() => void exportCsv()}>
          Export chart as CSV{idleMode === 'shared' ? '' : ' (idle as billed)'}
        </button>
      </div>
      {exportError !== null && <ErrorMessage error={exportError} what="the chart's export" />}
      <QueryView query={report} what="the cost over time" height={320}>
        {() => (
          <>
            <Chart
              label={`Cost per ${resolution} by ${stackLabels[stack].toLowerCase()}${running ? ', cumulative' : ''}`}
              option={option}
              testId="cost-over-time-chart"
            />
            <p className="series-caption">
              Total by {stackLabels[stack].toLowerCase()}:{' '}
              <Figure testId="cost-over-time-total" value={series.totalMicro} text={formatMoney(series.totalMicro, currency)} />
            </p>
            <ul className="series-totals" data-testid="cost-series" aria-label={`Cost by ${stackLabels[stack].toLowerCase()}`}>
              {series.groups.map((group, i) => (
                <li key={group.name}>
                  <span className="series-name">
                    <span className="swatch" aria-hidden="true" style={{ background: group.name === otherGroup ? OTHER_COLOUR : seriesColour(i) }} />
                    {group.name}
                  </span>{' '}
                  <Figure testId={`cost-series-${group.name}`} value={group.totalMicro} text={formatMoney(group.totalMicro, currency)} />
                </li>
              ))}
            </ul>
          </>
        )}
      </QueryView>
    </section>
  );
}
