import { presetRange, previousRange, rangeFromParams } from './range';

const now = Date.parse('2026-12-04T18:53:55Z');

test('presets end at the next whole hour', () => {
  expect(presetRange('24h', now)).toEqual({ start: '2026-12-03T19:00:00Z', end: '2026-12-04T19:00:00Z', preset: '24h', problem: null });
  expect(rangeFromParams(new URLSearchParams('range=90d'), now).start).toBe('2026-09-05T19:00:00Z');
  expect(rangeFromParams(new URLSearchParams(''), now).preset).toBe('7d');
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
