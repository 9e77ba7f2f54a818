// The API answers DAY buckets only for windows of whole UTC days: the range
// widened to the midnights around it.
const DAY_MS = 86_400_000;

export function wholeDays(range: { start: string; end: string }): { start: string; end: string } {
  const start = Math.floor(Date.parse(range.start) / DAY_MS) * DAY_MS;
  const end = Math.ceil(Date.parse(range.end) / DAY_MS) * DAY_MS;
  return { start: iso(start), end: iso(Math.max(end, start + DAY_MS)) };
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}
