// Charts load echarts in their own chunk: the first screen stays small.
// The chunk is requested as soon as a page with a chart is loaded, so it
// downloads and parses while the page's data is on its way instead of after.
import { lazy, Suspense } from 'react';
import type { ChartProps } from './chartTypes';
import { Skeleton } from './Skeleton';

const loadChart = import('./EChart');
const EChart = lazy(() => loadChart);

export function Chart(props: ChartProps) {
  return (
    <Suspense fallback={<Skeleton label={props.label} height={props.height} />}>
      <EChart {...props} />
    </Suspense>
  );
}
