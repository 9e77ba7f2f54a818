// Charts load echarts in their own chunk: the pages (and the first screen)
// stay small, and the chart code arrives while the page's data loads.
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
