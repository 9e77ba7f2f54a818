import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { activePolicy, policyHistory } from '../../api/endpoints';
import { useSession } from '../../auth/session';
import { DataTable, type Column } from '../../components/DataTable';
import { Figure } from '../../components/Figure';
import { QueryView } from '../../components/QueryView';
import { formatTime } from '../../format/numbers';
import type { PolicyVersion } from '../../api/types';
import { lineDiff } from './lineDiff';
import { appliedByText, replacedText } from './policyVersionText';

function AppliedByCell({ appliedBy, ownTokenId }: { appliedBy: string | undefined; ownTokenId: string }) {
  const who = appliedByText(appliedBy, ownTokenId);
  return <span title={who.detail}>{who.text}</span>;
}

function historyColumns(ownTokenId: string): Column<PolicyVersion>[] {
  return [
    { id: 'version', header: 'Version', numeric: true, cell: (v) => String(v.version ?? 0) },
    { id: 'applied', header: 'Applied at', cell: (v) => formatTime(v.appliedAt) },
    { id: 'by', header: 'Applied by', cell: (v) => <AppliedByCell appliedBy={v.appliedBy} ownTokenId={ownTokenId} /> },
    { id: 'message', header: 'Message', cell: (v) => v.message },
    { id: 'base', header: 'Replaced', cell: (v) => replacedText(v.baseVersion) },
  ];
}

function PolicyDiff({ versions }: { versions: number[] }) {
  const [from, setFrom] = useState(versions[1] ?? versions[0] ?? 0);
  const [to, setTo] = useState(versions[0] ?? 0);
  const before = useQuery({ queryKey: ['policy', from], queryFn: () => activePolicy(from), enabled: from > 0 });
  const after = useQuery({ queryKey: ['policy', to], queryFn: () => activePolicy(to), enabled: to > 0 });
  const diff = before.data && after.data ? lineDiff(before.data.document ?? '', after.data.document ?? '') : null;
  const select = (label: string, value: number, set: (v: number) => void) => (
    <label>
      {label}
      <select value={value} onChange={(e) => set(Number(e.target.value))}>
        {versions.map((v) => (
          <option key={v} value={v}>
            version {v}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <>
      <div className="controls">
        {select('From', from, setFrom)}
        {select('To', to, setTo)}
      </div>
      <QueryView query={before} what={`policy version ${from}`} height={120}>
        {() => (
          <QueryView query={after} what={`policy version ${to}`} height={120}>
            {() =>
              diff === null ? (
                <p>The documents are too large to compare here.</p>
              ) : (
                <pre className="diff" data-testid="policy-diff" aria-label={`Changes from version ${from} to ${to}`}>
                  {diff.map((line, index) => (
                    <span key={index} className={line.op === '+' ? 'added' : line.op === '-' ? 'removed' : undefined}>
                      {line.op} {line.text}
                      {'\n'}
                    </span>
                  ))}
                </pre>
              )
            }
          </QueryView>
        )}
      </QueryView>
    </>
  );
}

export default function PolicyPage() {
  const { scope } = useSession();
  // Policy documents are for planners and admins (team tokens get 403).
  const allowed = scope !== null && scope.team === null;
  const ownTokenId = scope?.tokenId ?? '';
  const active = useQuery({ queryKey: ['policy', 0], queryFn: () => activePolicy(), enabled: allowed });
  const history = useQuery({ queryKey: ['policy-history'], queryFn: () => policyHistory(), enabled: allowed });

  if (scope !== null && !allowed) {
    return (
      <section>
        <h1>Policy</h1>
        <p>The policy is visible to planners and admins. Your team&apos;s quotas are on Recommendations.</p>
      </section>
    );
  }
  return (
    <section>
      <h1>Policy</h1>
      <h2>Active policy</h2>
      <QueryView query={active} what="the active policy" height={200}>
        {(p) => (
          <>
            <p>
              Version <Figure testId="policy-version" value={String(p.version ?? 0)} text={String(p.version ?? 0)} />, applied{' '}
              {formatTime(p.appliedAt)} by <AppliedByCell appliedBy={p.appliedBy} ownTokenId={ownTokenId} />
              {p.message ? `: “${p.message}”` : ''}.
            </p>
            <pre className="document" data-testid="policy-document" tabIndex={0} aria-label="Active policy document">
              {p.document}
            </pre>
          </>
        )}
      </QueryView>
      <h2>History</h2>
      <QueryView query={history} what="the policy history" height={160}>
        {(h) => {
          const versions = h.versions ?? [];
          return (
            <>
              <DataTable
                caption="Policy versions, newest first"
                columns={historyColumns(ownTokenId)}
                rows={versions}
                rowKey={(v) => String(v.version)}
                testId="policy-history"
              />
              <p className="note" data-testid="policy-history-note">
                Applied by: the API token the version was applied with (its id: an admin sees the token’s role and
                description with <code>fleetcapctl token list</code>). Replaced: the version that was active until this one
                was applied (a rollback is a new version with an older version’s document).
              </p>
              <h2>Compare two versions</h2>
              {versions.length < 2 ? (
                <p>There is only one version.</p>
              ) : (
                <PolicyDiff versions={versions.map((v) => v.version ?? 0)} />
              )}
            </>
          );
        }}
      </QueryView>
    </section>
  );
}
