import { assetName, assetsQuery, assetViewFromParams } from './assetView';

test('the view comes from the URL; an unknown level is the model level and a device needs its cluster', () => {
  const view = assetViewFromParams(new URLSearchParams('group_by=node&cluster=c1&model=A100&device=g0'));
  expect(view.level).toBe('node');
  expect(view.filters).toEqual({ cluster: 'c1', model: 'A100', node: '' });
  expect(view.device).toBeNull();
  expect(assetViewFromParams(new URLSearchParams('group_by=rack')).level).toBe('model');
  expect(assetViewFromParams(new URLSearchParams('device_cluster=c1&device=g0')).device).toEqual({
    cluster: 'c1',
    device: 'g0',
  });
});

test('the query asks for the level, the filters set and the most rows the API gives', () => {
  const view = assetViewFromParams(new URLSearchParams('group_by=device&node=n1'));
  expect(assetsQuery(view, { start: 'S', end: 'E' })).toEqual({
    start: 'S',
    end: 'E',
    group_by: 'device',
    node: 'n1',
    limit: '1000',
  });
});

test('a row is named by its level key', () => {
  const row = { model: 'A100', cluster: 'c1', node: 'n1', device: 'g0' };
  expect(assetName(row, 'model')).toBe('A100');
  expect(assetName(row, 'cluster')).toBe('c1');
  expect(assetName(row, 'node')).toBe('c1/n1/A100');
  expect(assetName(row, 'device')).toBe('c1/n1/g0');
});
