// The forecast half of the Planning page: flavor, team and horizon pickers
// (kept in the URL), the chosen series, and per flavor the day capacity runs
// out (planners).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { forecast } from '../../api/endpoints';
import { ApiError } from '../../api/errors';
import type { Scope } from '../../auth/scope';
import { ErrorMessage } from '../../components/ErrorMessage';
import { QueryView } from '../../components/QueryView';
import { ExhaustionTable } from './ExhaustionTable';
import { ForecastPanel } from './ForecastPanel';
import { forecastParams, forecastTeam, horizons, outsideScope, type PlanningView } from './planningView';

export interface ForecastChoices {
  flavors: string[];
  teams: string[];
}

type SetParam = (key: string, value: string | null) => void;

function NotFound({ error }: { error: unknown }) {
  if (error instanceof ApiError && error.kind === 'not_found') {
    return (
      <p role="status" data-testid="forecast-missing">
        No stored forecast for this series: the optimizer has not forecast yet, or the team held nothing of this flavor
        over the history. ({error.detail})
      </p>
    );
  }
  return <ErrorMessage error={error} what="the forecast" />;
}

export function ForecastSection({
  scope,
  view,
  choices,
  setParam,
}: {
  scope: Scope;
  view: PlanningView;
  choices: ForecastChoices;
  setParam: SetParam;
}) {
  const teamToken = scope.team !== null;
  const flavor = view.flavor ?? choices.flavors[0] ?? null;
  const team = forecastTeam(view, scope);
  const outside = outsideScope(team, scope);
  const params = flavor !== null ? forecastParams(flavor, team, view.horizon) : null;
  const series = useQuery({
    queryKey: ['forecast', params],
    queryFn: () => forecast(params ?? {}),
    enabled: params !== null && !outside,
    // A new choice keeps the previous chart on screen (dimmed) until it answers.
    placeholderData: keepPreviousData,
  });

  return (
    <>
      <div className="controls">
        <label>
          Flavor
          <select data-testid="planning-flavor" value={flavor ?? ''} onChange={(e) => setParam('flavor', e.target.value)}>
            {choices.flavors.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </label>
        <label>
          Team
          <select data-testid="planning-team" value={team ?? ''} onChange={(e) => setParam('team', e.target.value || null)}>
            {!teamToken && <option value="">all teams (the flavor’s total)</option>}
            {choices.teams.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <div role="group" aria-label="Horizon">
          {horizons.map((h) => (
            <button key={h} type="button" aria-pressed={h === view.horizon} onClick={() => setParam('horizon', h)}>
              {h}
            </button>
          ))}
        </div>
      </div>
      {outside ? (
        <p role="alert" data-testid="outside-scope">
          Your token sees team {scope.team} and its sub-teams only; the team in the address is not one of them.{' '}
          <Link to="/planning">Show your team’s forecast</Link>
        </p>
      ) : flavor === null ? (
        <p>There is no flavor to forecast: the policy names none{teamToken ? ' that your teams have a quota of' : ''}.</p>
      ) : series.data === undefined && series.isError ? (
        <NotFound error={series.error} />
      ) : (
        <QueryView query={series} what="the forecast" height={420}>
          {(data) => (
            <ForecastPanel
              forecast={data}
              teamToken={teamToken}
              capacity={view.capacity}
              setCapacity={(choice) => setParam('capacity', choice)}
            />
          )}
        </QueryView>
      )}
      {!teamToken && choices.flavors.length > 0 && (
        <>
          <h2>When capacity runs out</h2>
          <ExhaustionTable flavors={choices.flavors} horizon={view.horizon} />
        </>
      )}
    </>
  );
}
