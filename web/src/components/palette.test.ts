import { groupsShown, MAX_GROUPS, OTHER_COLOUR, seriesColour, SERIES_COLOURS } from './palette';

// CIE 1976 L*a*b* distance of two sRGB colours: about 2.3 is the smallest
// difference a person notices; 15 and more tells two areas apart at a glance.
function lab(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  const linear = (c: number) => {
    const v = c / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const [r, g, b] = [linear(n >> 16), linear((n >> 8) & 255), linear(n & 255)];
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}
const distance = (a: string, b: string) => {
  const [p, q] = [lab(a), lab(b)];
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
};

test('24 colours, no two alike and none like the grey of "other"', () => {
  expect(MAX_GROUPS).toBe(24);
  expect(new Set(SERIES_COLOURS).size).toBe(24);
  for (let i = 0; i < SERIES_COLOURS.length; i++) {
    expect(distance(SERIES_COLOURS[i]!, OTHER_COLOUR), SERIES_COLOURS[i]).toBeGreaterThan(15);
    for (let j = i + 1; j < SERIES_COLOURS.length; j++) {
      expect(distance(SERIES_COLOURS[i]!, SERIES_COLOURS[j]!), `${SERIES_COLOURS[i]} ${SERIES_COLOURS[j]}`).toBeGreaterThan(15);
    }
  }
});

test('the tenth group no longer takes the first colour', () => {
  expect(seriesColour(9)).not.toBe(seriesColour(0));
  expect(new Set(Array.from({ length: 24 }, (_, i) => seriesColour(i))).size).toBe(24);
});

test('up to the limit every group is shown; past it the largest are, in their order, and the rest folded', () => {
  expect(groupsShown([1, 2, 3], 3)).toEqual({ shown: [0, 1, 2], folded: [] });
  expect(groupsShown([5, 1, 9, 3, 7], 3)).toEqual({ shown: [0, 2, 4], folded: [1, 3] });
  // Ties keep the earlier group.
  expect(groupsShown([2, 2, 2], 2)).toEqual({ shown: [0, 1], folded: [2] });
});
