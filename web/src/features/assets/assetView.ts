// The Assets page's state in the URL and its rows' names: the level
// (`group_by`), the filters (`cluster`, `model`, `node`) and the device whose
// pods are shown (`device_cluster`, `device`), and what is asked of
// GET /v1/fleet/assets for them.
import type { AssetRow } from '../../api/types';
import type { TimeRange } from '../../time/range';

export const assetLevels = ['model', 'cluster', 'node', 'device'] as const;
export type AssetLevel = (typeof assetLevels)[number];
export const assetFilters = ['cluster', 'model', 'node'] as const;
export type AssetFilter = (typeof assetFilters)[number];

// The most rows the API returns (docs/fleet.md, "Assets"): the page asks for
// all of them, the most idle first, and pages through them itself.
export const assetRowLimit = 1000;

export interface AssetView {
  level: AssetLevel;
  filters: Record<AssetFilter, string>;
  device: { cluster: string; device: string } | null;
}

export function assetViewFromParams(params: URLSearchParams): AssetView {
  const asked = params.get('group_by') ?? '';
  const level = (assetLevels as readonly string[]).includes(asked) ? (asked as AssetLevel) : 'model';
  const filters = { cluster: '', model: '', node: '' };
  for (const key of assetFilters) filters[key] = (params.get(key) ?? '').slice(0, 253);
  const deviceCluster = params.get('device_cluster');
  const device = params.get('device');
  return {
    level,
    filters,
    device: deviceCluster && device ? { cluster: deviceCluster.slice(0, 253), device: device.slice(0, 253) } : null,
  };
}

export function assetsQuery(view: AssetView, range: Pick<TimeRange, 'start' | 'end'>): Record<string, string> {
  const query: Record<string, string> = { start: range.start, end: range.end, group_by: view.level };
  for (const key of assetFilters) if (view.filters[key]) query[key] = view.filters[key];
  query.limit = String(assetRowLimit);
  return query;
}

// What a row is called: the fields of its level's key, joined by "/"
// (a node as cluster/node, a device as cluster/node/device; the model is
// a column of its own). Unique within one answer, so also its test id.
export function assetName(row: AssetRow, level: AssetLevel): string {
  switch (level) {
    case 'model':
      return row.model ?? '';
    case 'cluster':
      return row.cluster ?? '';
    case 'node':
      return `${row.cluster ?? ''}/${row.node ?? ''}/${row.model ?? ''}`;
    case 'device':
      return `${row.cluster ?? ''}/${row.node ?? ''}/${row.device ?? ''}`;
  }
}

export const assetLevelLabels: Record<AssetLevel, string> = {
  model: 'Model',
  cluster: 'Cluster',
  node: 'Node',
  device: 'Device',
};
