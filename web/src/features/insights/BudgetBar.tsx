// One budget as a bar: spent (solid), the forecast rest (light) up to the
// projection, and the amount marked by a line; the scale ends at the larger
// of the amount and the projection, so an overrun shows past the mark.
import { CHANGE_COLOURS } from '../../components/palette';
import { big, formatMoney } from '../../format/numbers';
import type { Budget } from '../../api/types';

const WIDTH = 220;
const HEIGHT = 22;

export function BudgetBar({ budget, currency }: { budget: Budget; currency: string }) {
  const amount = big(budget.amountMicro);
  const spent = big(budget.spentMicro);
  const projected = big(budget.projectedMicro);
  let top = amount;
  for (const v of [spent, projected]) if (v > top) top = v;
  // Pixels only; 12 pixels of room past the top keep the mark off the edge.
  const x = (v: bigint) => (top === 0n ? 0 : (Number(v) / Number(top)) * (WIDTH - 12));
  const spentColour = spent > amount ? CHANGE_COLOURS.up : CHANGE_COLOURS.total;
  return (
    <svg
      width={WIDTH}
      height={HEIGHT}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={`Spent ${formatMoney(spent, currency)} and projected ${formatMoney(projected, currency)} of a budget of ${formatMoney(amount, currency)}`}
      data-testid={`insights-budget-bar-${budget.team ?? ''}`}
    >
      <rect x={0} y={5} width={WIDTH - 12} height={12} fill="#eceff3" />
      <rect x={0} y={5} width={Math.max(0, x(projected))} height={12} fill={CHANGE_COLOURS.projected} />
      <rect x={0} y={5} width={Math.max(0, x(spent))} height={12} fill={spentColour} />
      <line x1={x(amount)} x2={x(amount)} y1={1} y2={HEIGHT - 1} stroke={CHANGE_COLOURS.limit} strokeWidth={2} data-mark="amount" />
    </svg>
  );
}
