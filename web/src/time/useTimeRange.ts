import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { rangeFromParams, type TimeRange } from './range';

export function useTimeRange(): TimeRange {
  const [params] = useSearchParams();
  const text = params.toString();
  // The whole hour changes the preset's end; recomputing per render is cheap
  // and gives the same range within the hour.
  const hour = Math.floor(Date.now() / 3_600_000);
  return useMemo(() => rangeFromParams(new URLSearchParams(text), Date.now()), [text, hour]);
}
