import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { ErrorMessage } from './ErrorMessage';
import { Skeleton } from './Skeleton';

// Skeleton until the first answer, the error when there is none, else the
// content (kept on screen while a new range refetches: keepPreviousData).
export function QueryView<T>({
  query,
  what,
  height,
  children,
}: {
  query: UseQueryResult<T>;
  what: string;
  height?: number;
  children: (data: T) => ReactNode;
}) {
  if (query.data !== undefined) {
    return (
      <div aria-busy={query.isFetching} className={query.isPlaceholderData ? 'stale' : undefined}>
        {query.isError && <ErrorMessage error={query.error} what={what} />}
        {children(query.data)}
      </div>
    );
  }
  if (query.isError) return <ErrorMessage error={query.error} what={what} />;
  return <Skeleton label={what} height={height} />;
}
