import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { server } from './server';

// jsdom has no canvas: charts are replaced by an element that exposes what
// they were asked to draw (series names and point counts).
vi.mock('../components/EChart', () => ({
  default: ({ option, testId, label }: { option: { series?: { name?: string; data?: unknown[] }[] }; testId?: string; label: string }) => (
    <div
      role="img"
      aria-label={label}
      data-testid={testId}
      data-ready="true"
      data-series={JSON.stringify((option.series ?? []).map((s) => [s.name ?? '', s.data?.length ?? 0]))}
    />
  ),
}));

// The first render of a page loads its lazy chunk, slow on a busy machine.
configure({ asyncUtilTimeout: 5000 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  if (typeof window !== 'undefined') window.sessionStorage.clear();
});
afterAll(() => server.close());
