import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { server } from './server';

// jsdom has no canvas: charts are replaced by an element that exposes what
// they were asked to draw (series names and point counts; a typed array holds
// its points flat, `dimensions` numbers to a point; whether it has a legend).
type MockSeries = { name?: string; data?: ArrayLike<unknown>; dimensions?: unknown[] };
const pointCount = (s: MockSeries) =>
  ArrayBuffer.isView(s.data) ? s.data.length / (s.dimensions?.length ?? 1) : (s.data?.length ?? 0);
// It is "drawn" (onReady) once rendered.
vi.mock('../components/EChart', async () => {
  const { useEffect } = await import('react');
  return {
    default: ({
      option,
      testId,
      label,
      onReady,
    }: {
      option: { series?: MockSeries[]; legend?: unknown };
      testId?: string;
      label: string;
      onReady?: () => void;
    }) => {
      useEffect(() => onReady?.(), [option, onReady]);
      return (
        <div
          role="img"
          aria-label={label}
          data-testid={testId}
          data-ready="true"
          data-series={JSON.stringify((option.series ?? []).map((s) => [s.name ?? '', pointCount(s)]))}
          data-legend={JSON.stringify(option.legend !== undefined)}
        />
      );
    },
  };
});

// jsdom lays nothing out and has no scrollIntoView; a page that brings an
// element into view calls it, and a test may spy on it.
if (typeof Element !== 'undefined' && Element.prototype.scrollIntoView === undefined) {
  Element.prototype.scrollIntoView = function scrollIntoView() {};
}

// The first render of a page loads its lazy chunk, slow on a busy machine.
configure({ asyncUtilTimeout: 5000 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  if (typeof window !== 'undefined') window.sessionStorage.clear();
});
afterAll(() => server.close());
