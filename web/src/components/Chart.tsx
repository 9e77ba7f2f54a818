// Charts load echarts in their own chunk: the first screen stays small.
// The chunk is not asked for when this module loads: the route of a page
// with a chart asks for it as navigation starts (routes.tsx), at the moment
// that suits the page (the Fleet page after its data requests are out, as
// evaluating echarts holds the main thread for a while). A chart rendered
// before that simply waits for it.
import { lazy, Suspense } from 'react';
import type { ChartProps } from './chartTypes';
import { Skeleton } from './Skeleton';

const EChart = lazy(() => import('./EChart'));

export function Chart(props: ChartProps) {
  return (
    <Suspense fallback={<Skeleton label={props.label} height={props.height} />}>
      <EChart {...props} />
    </Suspense>
  );
}
