// Per flavor, the day its capacity runs out (p50 and p90 of the flavor's
// total held demand), from each flavor's stored forecast. Planners only: a
// flavor's total and its capacity belong to no team.
import { useQueries } from '@tanstack/react-query';
import { forecast } from '../../api/endpoints';
import { Figure } from '../../components/Figure';
import { ApiError } from '../../api/errors';
import { forecastParams, type Horizon } from './planningView';
import { dayValue, formatDay } from './planningFormat';

function failure(error: unknown): string {
  if (error instanceof ApiError && error.kind === 'not_found') return 'no stored forecast';
  return error instanceof Error ? error.message : String(error);
}

export function ExhaustionTable({ flavors, horizon }: { flavors: string[]; horizon: Horizon }) {
  const answers = useQueries({
    queries: flavors.map((flavor) => {
      const params = forecastParams(flavor, null, horizon);
      return { queryKey: ['forecast', params], queryFn: () => forecast(params) };
    }),
  });
  return (
    <table className="data-table" data-testid="planning-exhaustion-table">
      <caption>When each flavor’s capacity runs out (held demand of all teams, within {horizon})</caption>
      <thead>
        <tr>
          <th scope="col">Flavor</th>
          <th scope="col">p50</th>
          <th scope="col">p90</th>
          <th scope="col">Model</th>
        </tr>
      </thead>
      <tbody>
        {flavors.map((flavor, index) => {
          const answer = answers[index];
          const data = answer?.data;
          return (
            <tr key={flavor}>
              <th scope="row">{flavor}</th>
              {data ? (
                <>
                  <td>
                    <Figure testId={`planning-exhaustion-p50-${flavor}`} value={dayValue(data.exhaustion?.p50Day)} text={formatDay(data.exhaustion?.p50Day)} />
                  </td>
                  <td>
                    <Figure testId={`planning-exhaustion-p90-${flavor}`} value={dayValue(data.exhaustion?.p90Day)} text={formatDay(data.exhaustion?.p90Day)} />
                  </td>
                  <td>
                    {data.model}
                    {data.fallbackReason ? ' (fallback)' : ''}
                  </td>
                </>
              ) : (
                <td colSpan={3}>{answer?.isError ? failure(answer.error) : 'Loading…'}</td>
              )}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
