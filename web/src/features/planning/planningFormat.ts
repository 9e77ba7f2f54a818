// How the Planning page words its figures.
import { big, divideRounded } from '../../format/numbers';

export const notWithinHorizon = 'not within the horizon';

// An exhaustion day (the API's UTC midnight) as its date; unset: not within the horizon.
export function formatDay(rfc3339: string | undefined): string {
  return rfc3339 ? rfc3339.slice(0, 10) : notWithinHorizon;
}

// What an exhaustion figure's data-value carries: the API's timestamp, or "none".
export const dayValue = (rfc3339: string | undefined): string => rfc3339 ?? 'none';

// Parts per million as a percentage with one decimal.
export function formatPpm(ppm: string | undefined): string {
  return `${divideRounded(big(ppm), 10_000n, 1)}%`;
}

// Milli-device-hours as device-hours with one decimal.
export function formatMilliHours(milliHours: string | undefined): string {
  return divideRounded(big(milliHours), 1000n, 1);
}

// A fitted figure to four significant digits; a vanishing one (a smoothing
// parameter fitted to ~0) in exponent form rather than as a row of zeros.
export function formatFitValue(value: number): string {
  if (value !== 0 && Math.abs(value) < 1e-3) return value.toExponential(2);
  return value.toLocaleString('en-US', { maximumSignificantDigits: 4 });
}

// A model's fit as "alpha 0.31, beta 0.02, …" (the API orders it by name).
export function formatFit(fit: Array<{ name?: string; value?: number }> | undefined): string {
  return (fit ?? []).map((p) => `${p.name ?? ''} ${formatFitValue(p.value ?? 0)}`).join(', ');
}
