import { presetRange, previousRange, rangeFromParams } from './range';

const now = Date.parse('2026-12-04T18:53:55Z');

test('presets end at the next whole hour', () => {
  expect(presetRange('24h', now)).toEqual({ start: '2026-12-03T19:00:00Z', end: '2026-12-04T19:00:00Z', preset: '24h', problem: null });
  expect(rangeFromParams(new URLSearchParams('range=90d'), now).start).toBe('2026-09-05T19:00:00Z');
  expect(rangeFromParams(new URLSearchParams(''), now).preset).toBe('7d');
});

test('calendar presets are UTC days and months', () => {
  const range = (preset: Parameters<typeof presetRange>[0], at = now) => {
    const r = presetRange(preset, at);
    return [r.start, r.end];
  };
  expect(range('today')).toEqual(['2026-12-04T00:00:00Z', '2026-12-04T19:00:00Z']);
  expect(range('yesterday')).toEqual(['2026-12-03T00:00:00Z', '2026-12-04T00:00:00Z']);
  expect(range('month')).toEqual(['2026-12-01T00:00:00Z', '2026-12-04T19:00:00Z']);
  expect(range('last-month')).toEqual(['2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z']);
  // At midnight on the first of January: today and the month are their first hour, never empty.
  const newYear = Date.parse('2027-01-01T00:00:00Z');
  expect(range('today', newYear)).toEqual(['2027-01-01T00:00:00Z', '2027-01-01T01:00:00Z']);
  expect(range('month', newYear)).toEqual(['2027-01-01T00:00:00Z', '2027-01-01T01:00:00Z']);
  expect(range('last-month', newYear)).toEqual(['2026-12-01T00:00:00Z', '2027-01-01T00:00:00Z']);
  expect(range('yesterday', newYear)).toEqual(['2026-12-31T00:00:00Z', '2027-01-01T00:00:00Z']);
  expect(rangeFromParams(new URLSearchParams('range=last-month'), now).preset).toBe('last-month');
});

test('a month is compared with the month before, month to date with the same days of it', () => {
  expect(previousRange(presetRange('last-month', now))).toEqual({ start: '2026-10-01T00:00:00Z', end: '2026-11-01T00:00:00Z' });
  expect(previousRange(presetRange('month', now))).toEqual({ start: '2026-11-01T00:00:00Z', end: '2026-11-04T19:00:00Z' });
  // 31 March to date against February: cut at February's end.
  const march31 = Date.parse('2027-03-31T12:30:00Z');
  expect(previousRange(presetRange('month', march31))).toEqual({ start: '2027-02-01T00:00:00Z', end: '2027-03-01T00:00:00Z' });
  expect(previousRange(presetRange('7d', now))).toEqual({ start: '2026-11-20T19:00:00Z', end: '2026-11-27T19:00:00Z' });
});

test('a custom range is read from start and end', () => {
  const r = rangeFromParams(new URLSearchParams('start=2026-11-01T00:00:00Z&end=2026-11-02T00:00:00Z'), now);
  expect(r).toEqual({ start: '2026-11-01T00:00:00Z', end: '2026-11-02T00:00:00Z', preset: null, problem: null });
  expect(previousRange(r)).toEqual({ start: '2026-10-31T00:00:00Z', end: '2026-11-01T00:00:00Z' });
});

test('a bad range in the URL falls back to the default and says why', () => {
  expect(rangeFromParams(new URLSearchParams('range=1y'), now).problem).toMatch(/Unknown range "1y"/);
  expect(rangeFromParams(new URLSearchParams('start=yesterday&end=2026-11-02T00:00:00Z'), now).problem).toMatch(/start: not an RFC 3339 time/);
  expect(rangeFromParams(new URLSearchParams('start=2026-11-02T00:00:00Z&end=2026-11-01T00:00:00Z'), now).problem).toMatch(
    /end: must be after start/,
  );
  expect(rangeFromParams(new URLSearchParams('start=2020-01-01T00:00:00Z&end=2026-11-01T00:00:00Z'), now).problem).toMatch(/366 days/);
});
