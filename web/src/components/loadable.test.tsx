import { render, screen } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { loadable } from './loadable';

function Greeting({ name }: { name: string }) {
  return <p>hello {name}</p>;
}

// A chunk whose download the test finishes (or fails) when it wants.
function deferredChunk() {
  let finish: () => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  let asked = 0;
  const chunk = new Promise<{ default: typeof Greeting }>((resolve, reject) => {
    finish = () => resolve({ default: Greeting });
    fail = reject;
  });
  const load = () => {
    asked += 1;
    return chunk;
  };
  return { load, finish: () => finish(), fail: (e: Error) => fail(e), asked: () => asked };
}

class Boundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  render() {
    return this.state.error ? <p>failed: {this.state.error.message}</p> : this.props.children;
  }
}

test('the fallback shows until the chunk is in, then the component with its props', async () => {
  const chunk = deferredChunk();
  const { Component: Lazy } = loadable(chunk.load, ({ name }) => <p>loading {name}</p>);
  render(<Lazy name="fleet" />);
  expect(screen.getByText('loading fleet')).toBeInTheDocument();
  chunk.finish();
  expect(await screen.findByText('hello fleet')).toBeInTheDocument();
  expect(screen.queryByText('loading fleet')).toBeNull();
});

test('a preloaded chunk draws in the first render, and is asked for once', async () => {
  const chunk = deferredChunk();
  const lazy = loadable(chunk.load, () => <p>loading</p>);
  const preloading = lazy.preload();
  chunk.finish();
  await preloading;
  render(<lazy.Component name="planner" />);
  // No render in between: the component is there synchronously.
  expect(screen.getByText('hello planner')).toBeInTheDocument();
  expect(screen.queryByText('loading')).toBeNull();
  await lazy.preload();
  expect(chunk.asked()).toBe(1);
});

test('a failed download reaches the error boundary, and the next render asks again', async () => {
  const chunk = deferredChunk();
  const lazy = loadable(chunk.load, () => <p>loading</p>);
  const silence = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  render(
    <Boundary>
      <lazy.Component name="x" />
    </Boundary>,
  );
  chunk.fail(new Error('chunk gone'));
  expect(await screen.findByText('failed: chunk gone')).toBeInTheDocument();
  silence.mockRestore();
  await expect(lazy.preload()).rejects.toThrow('chunk gone');
  expect(chunk.asked()).toBe(2);
});
