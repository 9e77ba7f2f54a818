// The time range of a view lives in the URL so a view can be shared:
// `?range=24h|7d|30d|90d` (ending at the next whole hour) or
// `?start=RFC3339&end=RFC3339` (custom).
export const presets = ['24h', '7d', '30d', '90d'] as const;
export type Preset = (typeof presets)[number];
export const defaultPreset: Preset = '7d';

const hourMs = 3_600_000;
const presetHours: Record<Preset, number> = { '24h': 24, '7d': 168, '30d': 720, '90d': 2160 };
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

export function presetRange(preset: Preset, nowMs: number): TimeRange {
  // End at the next whole hour: the current hour's data is included, and the
  // range (and so the query key) stays the same for the whole hour.
  const end = Math.ceil(nowMs / hourMs) * hourMs;
  return { start: toRfc3339(end - presetHours[preset] * hourMs), end: toRfc3339(end), preset, problem: null };
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

// The range just before, of the same length (for "trend against the previous period").
export function previousRange(range: TimeRange): { start: string; end: string } {
  const start = Date.parse(range.start);
  const end = Date.parse(range.end);
  return { start: toRfc3339(start - (end - start)), end: range.start };
}

export function rangeHours(range: { start: string; end: string }): number {
  return (Date.parse(range.end) - Date.parse(range.start)) / hourMs;
}
