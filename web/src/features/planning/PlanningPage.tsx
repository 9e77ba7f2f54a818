// The Planning page (docs/dashboard.md, "Planning"): forecasts of held
// device time per flavor and team against capacity, and what-if scenarios
// compared with the baseline (planners and admins).
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { activePolicy, recommendations } from '../../api/endpoints';
import { useSession } from '../../auth/session';
import { Skeleton } from '../../components/Skeleton';
import { flavorOptions, teamOptions } from './pickerOptions';
import { planningViewFrom } from './planningView';
import { policyListNames } from './policyNames';
import { ForecastSection } from './ForecastSection';
import { ScenarioSection } from './ScenarioSection';

export default function PlanningPage() {
  const { scope } = useSession();
  const [params, setParams] = useSearchParams();
  const view = planningViewFrom(params);
  const planner = scope !== null && scope.team === null;
  // The pickers' names: the policy's (planners may read it) and the recommendations'.
  const policy = useQuery({ queryKey: ['policy', 0], queryFn: () => activePolicy(), enabled: planner });
  const recs = useQuery({ queryKey: ['recommendations'], queryFn: () => recommendations(), enabled: scope !== null });

  const setParam = (key: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value === null) next.delete(key);
    else next.set(key, value);
    // A new flavor keeps the team; the team list is the same for every flavor.
    setParams(next);
  };
  const linkTo = (id: string) => {
    const next = new URLSearchParams(params);
    next.set('scenario', id);
    return `/planning?${next.toString()}`;
  };

  // The pickers wait for their names (a failed call leaves its names out).
  const namesPending = scope === null || recs.isPending || (planner && policy.isPending);
  const document = policy.data?.document ?? '';
  const recommendationList = recs.data?.recommendations ?? [];

  return (
    <section>
      <h1>Planning</h1>
      {view.problem && (
        <p role="alert" className="error" data-testid="planning-url-problem">
          {view.problem}
        </p>
      )}
      {scope !== null && scope.team !== null && (
        <p data-testid="planning-scope">
          Your token sees the forecasts of team {scope.team} and its sub-teams only: not a flavor’s total, its capacity
          or the day it runs out, and no what-if scenarios, which compare the whole fleet. Planners see those.
        </p>
      )}
      <h2>Forecast of held devices</h2>
      {namesPending || scope === null ? (
        <Skeleton label="the forecast" height={420} />
      ) : (
        <ForecastSection
          scope={scope}
          view={view}
          choices={{
            flavors: flavorOptions(policyListNames(document, 'flavors'), recommendationList, view.flavor),
            teams: teamOptions(scope, policyListNames(document, 'teams'), recommendationList, view.team),
          }}
          setParam={setParam}
        />
      )}
      {planner && (
        <>
          <h2>What-if scenario against the baseline</h2>
          <ScenarioSection scenarioId={view.scenarioId} setScenarioId={(id) => setParam('scenario', id)} linkTo={linkTo} />
        </>
      )}
    </section>
  );
}
