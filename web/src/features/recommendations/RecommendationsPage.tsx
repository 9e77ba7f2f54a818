import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { recommendationManifests, recommendations } from '../../api/endpoints';
import { DataTable, type Column } from '../../components/DataTable';
import { downloadText } from '../../components/download';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Figure } from '../../components/Figure';
import { QueryView } from '../../components/QueryView';
import { big, formatDevices, formatTime } from '../../format/numbers';
import type { Recommendation } from '../../api/types';

const key = (r: Recommendation) => `${r.team}/${r.flavor}`;

// The change since the previous run, in devices; "new" when the team and
// flavor had no recommendation then.
export function changeSincePrevious(r: Recommendation): string {
  if (r.previousRecommendedMilli === undefined) return 'new';
  const delta = big(r.recommendedMilli) - big(r.previousRecommendedMilli);
  if (delta === 0n) return 'unchanged';
  return `${delta > 0n ? '+' : '−'}${formatDevices(delta > 0n ? delta : -delta)}`;
}

const columns: Column<Recommendation>[] = [
  { id: 'team', header: 'Team', cell: (r) => r.team },
  { id: 'flavor', header: 'Flavor', cell: (r) => r.flavor },
  {
    id: 'guarantee',
    header: 'Current guarantee',
    numeric: true,
    cell: (r) => <Figure testId={`rec-guarantee-${key(r)}`} value={big(r.guaranteeMilli)} text={formatDevices(r.guaranteeMilli)} />,
  },
  {
    id: 'recommended',
    header: 'Recommended',
    numeric: true,
    cell: (r) => <Figure testId={`rec-recommended-${key(r)}`} value={big(r.recommendedMilli)} text={formatDevices(r.recommendedMilli)} />,
  },
  { id: 'change', header: 'Since last run', numeric: true, cell: (r) => <span data-testid={`rec-change-${key(r)}`}>{changeSincePrevious(r)}</span> },
  {
    id: 'measured',
    header: 'Measured demand',
    numeric: true,
    cell: (r) =>
      r.measuredDemandMilli === undefined ? (
        <span data-testid={`rec-measured-${key(r)}`}>not measured</span>
      ) : (
        <Figure testId={`rec-measured-${key(r)}`} value={big(r.measuredDemandMilli)} text={formatDevices(r.measuredDemandMilli)} />
      ),
  },
  {
    id: 'demand',
    header: 'Demand with headroom',
    numeric: true,
    cell: (r) => <Figure testId={`rec-demand-${key(r)}`} value={big(r.demandMilli)} text={formatDevices(r.demandMilli)} />,
  },
  // The limits exactly as the Kueue manifests write them (Kubernetes
  // quantities of the flavor's resource), never recomputed here.
  {
    id: 'borrowing',
    header: 'Kueue borrowingLimit',
    numeric: true,
    cell: (r) => <code data-testid={`rec-borrowing-${key(r)}`}>{r.kueueBorrowingLimit ?? 'none (unlimited)'}</code>,
  },
  {
    id: 'lending',
    header: 'Kueue lendingLimit',
    numeric: true,
    cell: (r) => <code data-testid={`rec-lending-${key(r)}`}>{r.kueueLendingLimit ?? 'none (lends all)'}</code>,
  },
  { id: 'bound', header: 'Bound by', cell: (r) => <span title={r.explanation}>{(r.boundBy ?? '').replace(/_/g, ' ')}</span> },
];

export default function RecommendationsPage() {
  const set = useQuery({ queryKey: ['recommendations'], queryFn: () => recommendations() });
  const [downloadError, setDownloadError] = useState<unknown>(null);
  const rows = useMemo(() => set.data?.recommendations ?? [], [set.data]);

  const download = async (format: 'kueue' | 'volcano') => {
    setDownloadError(null);
    try {
      const yaml = await recommendationManifests(format);
      downloadText(`fleetcap-${format}-run-${set.data?.runId ?? 'latest'}.yaml`, yaml, 'text/yaml');
    } catch (cause) {
      setDownloadError(cause);
    }
  };

  return (
    <section>
      <h1>Recommendations</h1>
      <p>
        Quantities are devices (per team and flavor): the measured demand, and the demand with the policy’s headroom
        for growth and queueing that the quota was computed from. The Kueue limits are shown as the manifests write
        them. Hover “Bound by” for how the demand was measured.
      </p>
      <div className="controls">
        <button type="button" onClick={() => void download('kueue')}>
          Download Kueue manifests
        </button>
        <button type="button" onClick={() => void download('volcano')}>
          Download Volcano manifests
        </button>
      </div>
      {downloadError !== null && <ErrorMessage error={downloadError} what="the manifests" />}
      <QueryView query={set} what="the recommendations" height={300}>
        {(data) => (
          <>
            <p>
              Run <Figure testId="rec-run-id" value={data.runId ?? '0'} text={data.runId ?? '0'} /> computed{' '}
              {formatTime(data.computedAt)} with policy version {data.policyVersion ?? 0}
              {data.previousRunId && data.previousRunId !== '0'
                ? `; changes are against run ${data.previousRunId}.`
                : '; there is no earlier run to compare with.'}
            </p>
            <DataTable caption="Recommended quota per team and flavor" columns={columns} rows={rows} rowKey={key} testId="rec-table" />
            <details>
              <summary>How each recommendation was reached</summary>
              <ul>
                {rows.map((r) => (
                  <li key={key(r)}>
                    <strong>{key(r)}</strong>: {r.explanation}
                  </li>
                ))}
              </ul>
            </details>
          </>
        )}
      </QueryView>
    </section>
  );
}
