import type { EChartsCoreOption } from 'echarts/core';

export interface ChartProps {
  // What the chart shows, for screen readers (role="img" aria-label).
  label: string;
  option: EChartsCoreOption;
  height?: number;
  testId?: string;
  // Called each time an option has been drawn.
  onReady?: () => void;
}
