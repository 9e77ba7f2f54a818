import { wholeDays } from './dayWindow';

test('widens a window to the UTC midnights around it', () => {
  expect(wholeDays({ start: '2026-09-05T21:00:00Z', end: '2026-12-04T21:00:00Z' })).toEqual({
    start: '2026-09-05T00:00:00Z',
    end: '2026-12-05T00:00:00Z',
  });
});

test('keeps a window of whole days as it is', () => {
  const days = { start: '2026-11-01T00:00:00Z', end: '2026-11-03T00:00:00Z' };
  expect(wholeDays(days)).toEqual(days);
});

test('a window inside one day becomes that day', () => {
  expect(wholeDays({ start: '2026-11-01T05:00:00Z', end: '2026-11-01T06:00:00Z' })).toEqual({
    start: '2026-11-01T00:00:00Z',
    end: '2026-11-02T00:00:00Z',
  });
});
