// Charts load echarts in their own chunk: the first screen stays small.
// The chunk is not asked for when this module loads: the route of a page
// with a chart asks for it as navigation starts (routes.tsx), at the moment
// that suits the page (the Fleet page after its data requests are out, as
// evaluating echarts holds the main thread for a while). A chart rendered
// before that shows its skeleton until the chunk is in.
import type { ChartProps } from './chartTypes';
import { loadable } from './loadable';
import { Skeleton } from './Skeleton';

const echart = loadable<ChartProps>(
  () => import('./EChart'),
  (props) => <Skeleton label={props.label} height={props.height} />,
);

export const Chart = echart.Component;
// A failure is the chart's to show when it renders.
export const preloadChart = (): void => void echart.preload().catch(() => undefined);
