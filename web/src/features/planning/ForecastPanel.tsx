// One forecast series: the chart (history, p50, p90 band, capacity), the
// figures a planner reads off it, the model and its fallback note.
import { useMemo } from 'react';
import { Chart } from '../../components/Chart';
import { Figure } from '../../components/Figure';
import { big, formatDevices, formatTime } from '../../format/numbers';
import type { Forecast } from '../../api/types';
import { capacitySquashes, forecastChartOption, hasCapacity, hasPoints } from './forecastChart';
import type { CapacityChoice } from './planningView';
import { dayValue, formatDay, formatFit } from './planningFormat';

function DeviceFigure({ testId, milli }: { testId: string; milli: string | undefined }) {
  return <Figure testId={testId} value={big(milli)} text={`${formatDevices(milli)} devices`} />;
}

// The capacity line on or off: off by default where it would flatten the
// demand to the axis (capacitySquashes), and the page says so.
function CapacityChoiceControl({
  shown,
  squashes,
  capacityMilli,
  setCapacity,
}: {
  shown: boolean;
  squashes: boolean;
  capacityMilli: string | undefined;
  setCapacity: (choice: CapacityChoice) => void;
}) {
  return (
    <div className="controls">
      <label>
        <input
          type="checkbox"
          data-testid="forecast-show-capacity"
          checked={shown}
          onChange={(e) => setCapacity(e.target.checked ? 'show' : 'hide')}
        />
        Show capacity on the chart
      </label>
      {!shown && squashes && (
        <span className="note" data-testid="forecast-capacity-hidden">
          Capacity ({formatDevices(capacityMilli)} devices) is left out: on the same axis it would flatten the forecast.
        </span>
      )}
    </div>
  );
}

export function ForecastPanel({
  forecast,
  teamToken,
  capacity,
  setCapacity,
}: {
  forecast: Forecast;
  teamToken: boolean;
  // The choice in the URL; null: shown unless it would flatten the forecast.
  capacity: CapacityChoice | null;
  setCapacity: (choice: CapacityChoice) => void;
}) {
  const withCapacity = hasCapacity(forecast);
  const squashes = useMemo(() => capacitySquashes(forecast), [forecast]);
  const showCapacity = withCapacity && (capacity === null ? !squashes : capacity === 'show');
  const option = useMemo(() => forecastChartOption(forecast, showCapacity), [forecast, showCapacity]);
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
      {withCapacity && hasPoints(forecast) && (
        <CapacityChoiceControl
          shown={showCapacity}
          squashes={squashes}
          capacityMilli={lastCapacity?.milli}
          setCapacity={setCapacity}
        />
      )}
      {hasPoints(forecast) ? (
        <Chart
          label={`Held devices of ${forecast.flavor} for ${series}: history, p50 forecast with its p90 band${showCapacity ? ', and capacity' : ''}`}
          option={option}
          height={340}
          testId="planning-forecast-chart"
          renderer="svg"
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
