import type { EChartsCoreOption } from 'echarts/core';

export interface ChartProps {
  // What the chart shows, for screen readers (role="img" aria-label).
  label: string;
  option: EChartsCoreOption;
  height?: number;
  testId?: string;
  // Called each time an option has been drawn.
  onReady?: () => void;
  // Canvas (the default) for charts of thousands of points; SVG for small
  // ones, whose text (legend, labels, scale) is then real text in the page.
  renderer?: 'canvas' | 'svg';
}
