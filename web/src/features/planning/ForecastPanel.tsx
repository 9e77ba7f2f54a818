// One forecast series: the chart (history, p50, p90 band, capacity), the
// figures a planner reads off it, the model and its fallback note.
import { useMemo } from 'react';
import { Chart } from '../../components/Chart';
import { Figure } from '../../components/Figure';
import { big, formatDevices, formatTime } from '../../format/numbers';
import type { Forecast } from '../../api/types';
import { forecastChartOption, hasPoints } from './forecastChart';
import { dayValue, formatDay, formatFit } from './planningFormat';

function DeviceFigure({ testId, milli }: { testId: string; milli: string | undefined }) {
  return <Figure testId={testId} value={big(milli)} text={`${formatDevices(milli)} devices`} />;
}

export function ForecastPanel({ forecast, teamToken }: { forecast: Forecast; teamToken: boolean }) {
  const option = useMemo(() => forecastChartOption(forecast), [forecast]);
  const series = forecast.team ? `team ${forecast.team}` : 'the whole flavor';
  const lastHistory = forecast.history?.at(-1);
  const lastBand = forecast.forecast?.at(-1);
  const lastCapacity = forecast.capacityForecast?.at(-1);
  const bucket = forecast.resolution === 'DAY' ? "each day's peak hour" : 'hourly';
  return (
    <div className="panel">
      <p>
        Held devices of <strong>{forecast.flavor}</strong> for {series}, {bucket}: run {forecast.runId ?? '0'} computed{' '}
        {formatTime(forecast.computedAt)}.
      </p>
      {hasPoints(forecast) ? (
        <Chart
          label={`Held devices of ${forecast.flavor} for ${series}: history, p50 forecast with its p90 band${teamToken ? '' : ', and capacity'}`}
          option={option}
          height={340}
          testId="planning-forecast-chart"
        />
      ) : (
        <p>This series has no points over the horizon asked for.</p>
      )}
      <dl className="figures">
        <dt>Held at the end of the history</dt>
        <dd>{lastHistory ? <DeviceFigure testId="forecast-history-last" milli={lastHistory.milli} /> : '–'}</dd>
        <dt>At the horizon’s end (p50 / p90)</dt>
        <dd>
          {lastBand ? (
            <>
              <DeviceFigure testId="forecast-p50-end" milli={lastBand.p50Milli} /> /{' '}
              <DeviceFigure testId="forecast-p90-end" milli={lastBand.p90Milli} />
            </>
          ) : (
            '–'
          )}
        </dd>
        {!teamToken && (
          <>
            <dt>Capacity (held flat)</dt>
            <dd>{lastCapacity ? <DeviceFigure testId="forecast-capacity-end" milli={lastCapacity.milli} /> : '–'}</dd>
            <dt>Capacity runs out (p50 / p90)</dt>
            <dd>
              <Figure
                testId="forecast-exhaustion-p50"
                value={dayValue(forecast.exhaustion?.p50Day)}
                text={formatDay(forecast.exhaustion?.p50Day)}
              />{' '}
              /{' '}
              <Figure
                testId="forecast-exhaustion-p90"
                value={dayValue(forecast.exhaustion?.p90Day)}
                text={formatDay(forecast.exhaustion?.p90Day)}
              />
            </dd>
          </>
        )}
        <dt>Model</dt>
        <dd>
          <span data-testid="forecast-model">{forecast.model || 'unknown'}</span>
          {forecast.fit && forecast.fit.length > 0 && <span className="fit"> ({formatFit(forecast.fit)})</span>}
        </dd>
      </dl>
      {forecast.fallbackReason ? (
        <p className="note" data-testid="forecast-fallback">
          A simpler model than the seasonal one was used: {forecast.fallbackReason}
        </p>
      ) : null}
      {teamToken && (
        <p className="note" data-testid="forecast-team-note">
          Capacity and the day it runs out belong to no team: planners see them. Your token shows your teams’ demand only.
        </p>
      )}
    </div>
  );
}
