// The Insights page (docs/dashboard.md, "Insights"): where money is wasted
// on idle devices, what to resize, why spend changed and the month's
// budgets, for the fleet (planners) or a team and its sub-teams. Each
// section asks for its own answer and shows its own loading, error and empty
// state: one that fails leaves the others on screen.
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { activePolicy } from '../../api/endpoints';
import { useSession } from '../../auth/session';
import type { Scope } from '../../auth/scope';
import { Skeleton } from '../../components/Skeleton';
import { TimeRangePicker } from '../../components/TimeRangePicker';
import type { TimeRange } from '../../time/range';
import { useTimeRange } from '../../time/useTimeRange';
import { policyListNames } from '../planning/policyNames';
import { BudgetsSection } from './BudgetsSection';
import { SavingsSection } from './SavingsSection';
import { SpendChangeSection } from './SpendChangeSection';
import { WasteSection } from './WasteSection';
import { insightsScope } from './insightsView';

export default function InsightsPage() {
  const { scope } = useSession();
  const range = useTimeRange();
  const [params] = useSearchParams();
  return (
    <section>
      <h1>Insights</h1>
      <TimeRangePicker range={range} />
      {scope === null ? <Skeleton label="your token's scope" height={400} /> : <ScopedInsights scope={scope} params={params} range={range} />}
    </section>
  );
}

function ScopedInsights({ scope, params, range }: { scope: Scope; params: URLSearchParams; range: TimeRange }) {
  const { team, outside } = insightsScope(params, scope);
  if (outside) {
    return (
      <p role="alert" className="error" data-testid="outside-scope">
        Your token sees team {scope.team} and its sub-teams only; the team in the address ({team}) is not one of them.
      </p>
    );
  }
  return (
    <>
      <TeamPicker scope={scope} team={team} />
      <WasteSection range={range} team={team} />
      <SavingsSection team={team} />
      <SpendChangeSection range={range} team={team} />
      <BudgetsSection team={team} />
    </>
  );
}

// A planner picks the fleet or a team (the policy's org tree, parents
// included: a team's figures take in its sub-teams); a team token its own
// team or one of its sub-teams, never the fleet.
function TeamPicker({ scope, team }: { scope: Scope; team: string | null }) {
  const [params, setParams] = useSearchParams();
  const planner = scope.team === null;
  const policy = useQuery({ queryKey: ['policy', 0], queryFn: () => activePolicy(), enabled: planner });
  const names = planner ? policyListNames(policy.data?.document ?? '', 'teams') : [scope.team ?? '', ...scope.teams];
  const choices = [...new Set([...names, ...(team ? [team] : [])].filter((n) => n !== ''))];
  const choose = (value: string) => {
    const next = new URLSearchParams(params);
    if (value === '') next.delete('team');
    else next.set('team', value);
    setParams(next);
  };
  return (
    <div className="controls">
      <label>
        Team{' '}
        <select data-testid="insights-team" value={team ?? ''} onChange={(e) => choose(e.target.value)}>
          {planner && <option value="">the whole fleet</option>}
          {choices.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <span className="note">
        {team === null ? 'The whole fleet’s figures.' : `Team ${team} and the teams under it.`} Savings and budgets are of
        now; waste and the change of spend of the range.
      </span>
    </div>
  );
}
