// The time range of a view lives in the URL so a view can be shared:
// `?range=` a preset or `?start=RFC3339&end=RFC3339` (custom). The presets
// are the last 24 h, 7, 30 or 90 days (ending at the next whole hour) and
// the UTC calendar's today, yesterday, month to date and last month: the
// app speaks UTC, as the chargeback's hours and months do.
export const presets = ['today', 'yesterday', '24h', '7d', '30d', '90d', 'month', 'last-month'] as const;
export type Preset = (typeof presets)[number];
export const defaultPreset: Preset = '7d';

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;
const presetHours: Partial<Record<Preset, number>> = { '24h': 24, '7d': 168, '30d': 720, '90d': 2160 };
// The longest custom range: a year of hourly buckets is already more than a chart should draw.
const maxRangeMs = 366 * 24 * hourMs;

export interface TimeRange {
  start: string;
  end: string;
  preset: Preset | null;
  // Why the URL's range was not used (and the default was), for the page to say.
  problem: string | null;
}

export function toRfc3339(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

function parseTime(text: string | null): number | null {
  if (!text || text.length > 40) return null;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

// [start, end) in ms of a calendar preset, or of the last N hours.
function presetBounds(preset: Preset, nowMs: number): [number, number] {
  // Up to now ends at the next whole hour: the current hour's data is
  // included, and the range (and so the query key) stays the same for the
  // whole hour.
  const nextHour = Math.ceil(nowMs / hourMs) * hourMs;
  const today = Math.floor(nowMs / dayMs) * dayMs;
  const now = new Date(nowMs);
  const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  switch (preset) {
    case 'today':
      return [today, Math.max(nextHour, today + hourMs)];
    case 'yesterday':
      return [today - dayMs, today];
    case 'month':
      return [monthStart, Math.max(nextHour, monthStart + hourMs)];
    case 'last-month':
      return [Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1), monthStart];
    default:
      return [nextHour - (presetHours[preset] ?? 0) * hourMs, nextHour];
  }
}

export function presetRange(preset: Preset, nowMs: number): TimeRange {
  const [start, end] = presetBounds(preset, nowMs);
  return { start: toRfc3339(start), end: toRfc3339(end), preset, problem: null };
}

export function rangeFromParams(params: URLSearchParams, nowMs: number): TimeRange {
  const startText = params.get('start');
  const endText = params.get('end');
  if (startText !== null || endText !== null) {
    const start = parseTime(startText);
    const end = parseTime(endText);
    let problem: string | null = null;
    if (start === null) problem = 'start: not an RFC 3339 time';
    else if (end === null) problem = 'end: not an RFC 3339 time';
    else if (end <= start) problem = 'end: must be after start';
    else if (end - start > maxRangeMs) problem = 'the custom range is longer than 366 days';
    if (problem === null && start !== null && end !== null) {
      return { start: toRfc3339(start), end: toRfc3339(end), preset: null, problem: null };
    }
    return { ...presetRange(defaultPreset, nowMs), problem: `Custom range ignored (${problem}); showing ${defaultPreset}.` };
  }
  const range = params.get('range');
  if (range === null) return presetRange(defaultPreset, nowMs);
  if ((presets as readonly string[]).includes(range)) return presetRange(range as Preset, nowMs);
  return { ...presetRange(defaultPreset, nowMs), problem: `Unknown range "${range.slice(0, 20)}"; showing ${defaultPreset}.` };
}

// The period to compare with ("trend against the previous period"): the
// month before for last month, the same days of the month before for month
// to date (cut at the month's end), otherwise the range just before, of the
// same length.
export function previousRange(range: Pick<TimeRange, 'start' | 'end' | 'preset'>): { start: string; end: string } {
  const start = Date.parse(range.start);
  const end = Date.parse(range.end);
  if (range.preset === 'month' || range.preset === 'last-month') {
    const first = new Date(start);
    const monthBefore = Date.UTC(first.getUTCFullYear(), first.getUTCMonth() - 1, 1);
    const to = range.preset === 'last-month' ? start : Math.min(monthBefore + (end - start), start);
    return { start: toRfc3339(monthBefore), end: toRfc3339(to) };
  }
  return { start: toRfc3339(start - (end - start)), end: range.start };
}

export function rangeHours(range: { start: string; end: string }): number {
  return (Date.parse(range.end) - Date.parse(range.start)) / hourMs;
}
