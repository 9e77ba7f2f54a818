// The echarts wrapper: only the chart types and components the pages use
// are registered (tree-shaken), drawn on canvas, so 90 days of hourly
// points per model are a few typed arrays rather than React elements.
import { useEffect, useRef, useState } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, HeatmapChart, LineChart } from 'echarts/charts';
import {
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  VisualMapComponent,
} from 'echarts/components';
import { CanvasRenderer, SVGRenderer } from 'echarts/renderers';
import type { ChartProps } from './chartTypes';
import { SERIES_COLOURS } from './palette';

echarts.use([
  BarChart,
  HeatmapChart,
  LineChart,
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  VisualMapComponent,
  CanvasRenderer,
  SVGRenderer,
]);

export default function EChart({ label, option, height = 320, testId, onReady, renderer = 'canvas' }: ChartProps) {
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const [ready, setReady] = useState(false);
  // The latest callback, read when a frame is drawn: a new function on each
  // render must not set the option again.
  const onReadyRef = useRef(onReady);
  onReadyRef.current = onReady;

  useEffect(() => {
    if (!element.current) return undefined;
    const instance = echarts.init(element.current, undefined, { renderer });
    chart.current = instance;
    const resize = () => instance.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      instance.dispose();
      chart.current = null;
    };
  }, [renderer]);

  useEffect(() => {
    const instance = chart.current;
    if (!instance) return;
    setReady(false);
    // `finished`: the frame with this option is drawn (animation is off).
    const done = () => {
      setReady(true);
      onReadyRef.current?.();
    };
    instance.on('finished', done);
    // Every chart's series take the one palette (components/palette.ts) unless they name a colour.
    instance.setOption({ animation: false, color: [...SERIES_COLOURS], ...option }, { notMerge: true });
    return () => {
      instance.off('finished', done);
    };
  }, [option, renderer]);

  return (
    <div
      ref={element}
      role="img"
      aria-label={label}
      data-testid={testId}
      data-ready={ready ? 'true' : 'false'}
      style={{ width: '100%', height }}
    />
  );
}
