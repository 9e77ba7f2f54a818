// A component in a chunk of its own, like React.lazy, but without Suspense:
// React holds back the reveal of a Suspense boundary's content until 300 ms
// after its fallback was shown, so a page or chart whose chunk came in 20 ms
// after its skeleton still waited the full 300 ms. Here the component draws
// in the render after its chunk is in, or at once if it already is.
import { useEffect, useState, type ComponentType, type ReactNode } from 'react';

export interface Loadable<P extends object> {
  // Renders `fallback` until the chunk is in; a failed download goes to the
  // nearest error boundary, as a failed React.lazy does.
  Component: ComponentType<P>;
  // Asks for the chunk (once); a route calls it as navigation starts.
  preload: () => Promise<ComponentType<P>>;
}

export function loadable<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  fallback: (props: P) => ReactNode,
): Loadable<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const preload = () => {
    loading ??= load().then(
      (module) => (loaded = module.default),
      (error: unknown) => {
        // The next render may ask again.
        loading = null;
        throw error;
      },
    );
    return loading;
  };

  function LoadableComponent(props: P) {
    const [Inner, setInner] = useState<ComponentType<P> | null>(() => loaded);
    const [failure, setFailure] = useState<{ error: unknown } | null>(null);
    useEffect(() => {
      if (Inner !== null) return undefined;
      let mounted = true;
      preload().then(
        (component) => mounted && setInner(() => component),
        (error: unknown) => mounted && setFailure({ error }),
      );
      return () => {
        mounted = false;
      };
    }, [Inner]);
    if (failure !== null) throw failure.error;
    return Inner !== null ? <Inner {...props} /> : fallback(props);
  }
  return { Component: LoadableComponent, preload };
}
