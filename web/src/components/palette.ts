// The colours of every chart, in one place. ECharts' own palette has nine
// colours, so the tenth group of a chart took the first one's (team-00 and
// team-09 looked alike). These 24 are distinct side by side (no two closer
// than 15 in CIELAB, palette.test.ts) and none is the grey of "other": a
// chart shows at most MAX_GROUPS groups and folds the rest into "other".

export const SERIES_COLOURS: readonly string[] = [
  // Twelve hues first, so that neighbours in a stack of up to twelve differ in hue...
  '#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#b6992d', '#499894', '#d37295', '#b07aa1', '#9d7660', '#1f3b73', '#7b2c10', '#2e6b30',
  // ...then lighter and further ones.
  '#a0cbe8', '#ffbe7d', '#8cd17d', '#ff9d9a', '#f1ce63', '#86bcb6', '#fabfd2', '#c9a0f0', '#d7b5a6', '#6a2e7a', '#c9c93a', '#0f7c8c',
];

export const MAX_GROUPS = SERIES_COLOURS.length;

// What the groups past MAX_GROUPS are summed into, and what is unknown.
export const OTHER_COLOUR = '#9e9e9e';
export const OTHER_NAME = 'other';

// Lines that stand for one thing on every chart (history, forecast, capacity).
export const ROLE_COLOURS = {
  history: '#12355b',
  forecast: '#c45a00',
  forecastBand: 'rgba(196, 90, 0, 0.2)',
  capacity: '#1a1a1a',
} as const;

// The heatmap's scale: from a very light blue (no use) to the palette's first blue.
export const HEAT_SCALE: readonly string[] = ['#eef3f9', '#a0cbe8', '#4e79a7', '#1f3b73'];

export function seriesColour(index: number): string {
  return SERIES_COLOURS[index % SERIES_COLOURS.length] as string;
}

// Which groups a chart shows on their own: all of them up to MAX_GROUPS,
// else the MAX_GROUPS largest by `size` (in their original order); the rest
// are folded into "other".
export function groupsShown(sizes: readonly number[], max = MAX_GROUPS): { shown: number[]; folded: number[] } {
  const all = sizes.map((_, i) => i);
  if (sizes.length <= max) return { shown: all, folded: [] };
  const largest = new Set([...all].sort((a, b) => (sizes[b] as number) - (sizes[a] as number) || a - b).slice(0, max));
  return { shown: all.filter((i) => largest.has(i)), folded: all.filter((i) => !largest.has(i)) };
}

// A change of money (the Insights page's waterfall, budgets): totals in the
// palette's first blue, an increase of spend red, a decrease green, and what
// is projected rather than spent the light orange. Each is also said in words
// or signs beside it: colour is never the only cue.
export const CHANGE_COLOURS = {
  total: '#4e79a7',
  up: '#c43c3f',
  down: '#2e6b30',
  projected: '#ffbe7d',
  limit: '#1a1a1a',
} as const;
