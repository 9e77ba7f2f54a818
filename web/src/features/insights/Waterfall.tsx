// The spend-change waterfall, drawn in SVG by hand (a few bars need no chart
// library, and its text stays text): one row per step, the previous total on
// top, each driver a bar from the running total up (red, "+") or down
// (green, "−"), the current total at the bottom; every bar's figure is
// written beside it, and the table next to the chart holds the same figures.
import { CHANGE_COLOURS } from '../../components/palette';
import { formatMoney } from '../../format/numbers';
import { driverWords } from './insightsWords';
import { waterfallDomain, type WaterfallStep } from './waterfall';

const ROW = 30;
const BAR = 18;
const LABEL_RIGHT = 230;
const BAR_LEFT = 240;
const BAR_WIDTH = 340;
const VALUE_LEFT = BAR_LEFT + BAR_WIDTH + 10;
const WIDTH = VALUE_LEFT + 150;

const stepLabel = (step: WaterfallStep) =>
  step.name === 'previous' ? 'Previous total' : step.name === 'current' ? 'Current total' : driverWords(step.name);

// The running total after a step, where the next one starts.
const endOf = (step: WaterfallStep) => (step.kind === 'down' ? step.from : step.to);

export function signedMoney(value: bigint, currency: string): string {
  if (value === 0n) return `±${formatMoney(0n, currency)}`;
  return value > 0n ? `+${formatMoney(value, currency)}` : `−${formatMoney(-value, currency)}`;
}

export function Waterfall({ steps, currency, label }: { steps: WaterfallStep[]; currency: string; label: string }) {
  const [low, high] = waterfallDomain(steps);
  // Pixels only: the figures themselves are written from the exact values.
  const x = (value: bigint) => BAR_LEFT + (Number(value - low) / Number(high - low)) * BAR_WIDTH;
  const height = steps.length * ROW + 8;
  return (
    <svg
      className="waterfall"
      data-testid="insights-waterfall"
      data-ready="true"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${WIDTH} ${height}`}
      width={WIDTH}
      height={height}
    >
      {low < 0n && <line x1={x(0n)} x2={x(0n)} y1={0} y2={height} stroke={CHANGE_COLOURS.limit} strokeWidth={1} />}
      {steps.map((step, i) => {
        const y = i * ROW + (ROW - BAR) / 2;
        const text = step.kind === 'total' ? formatMoney(step.value, currency) : signedMoney(step.value, currency);
        const next = steps[i + 1];
        return (
          <g key={`${step.name}-${i}`} data-step={step.name} data-kind={step.kind} data-value={String(step.value)}>
            <text x={LABEL_RIGHT} y={y + BAR - 4} textAnchor="end" fontSize={13} fill="#1a1a1a">
              {stepLabel(step)}
            </text>
            <rect
              x={x(step.from)}
              y={y}
              // A driver that moved nothing still shows as a hairline.
              width={Math.max(1, x(step.to) - x(step.from))}
              height={BAR}
              fill={CHANGE_COLOURS[step.kind]}
            />
            <text x={VALUE_LEFT} y={y + BAR - 4} fontSize={13} fill="#1a1a1a" fontWeight={step.kind === 'total' ? 600 : 400}>
              {text}
            </text>
            {next && (
              <line
                x1={x(endOf(step))}
                x2={x(endOf(step))}
                y1={y + BAR}
                y2={y + ROW}
                stroke="#6b6b6b"
                strokeDasharray="3 2"
                strokeWidth={1}
              />
            )}
          </g>
        );
      })}
    </svg>
  );
}
