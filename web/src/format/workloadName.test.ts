import { parseWorkload, workloadContext } from './workloadName';

test('a workload key splits into its kind and name', () => {
  expect(parseWorkload('Pod/openb-pod-4895')).toEqual({ name: 'openb-pod-4895', kind: 'Pod' });
  expect(parseWorkload('Job/asr')).toEqual({ name: 'asr', kind: 'Job' });
  // Only the first slash separates the kind.
  expect(parseWorkload('Deployment/a/b')).toEqual({ name: 'a/b', kind: 'Deployment' });
});

test('a workload that is not Kind/name is shown whole, an empty one as (none)', () => {
  expect(parseWorkload('trainer')).toEqual({ name: 'trainer', kind: '' });
  expect(parseWorkload('/x')).toEqual({ name: '/x', kind: '' });
  expect(parseWorkload('Pod/')).toEqual({ name: 'Pod/', kind: '' });
  expect(parseWorkload('not a kind/x')).toEqual({ name: 'not a kind/x', kind: '' });
  expect(parseWorkload('')).toEqual({ name: '(none)', kind: '' });
  expect(parseWorkload(undefined)).toEqual({ name: '(none)', kind: '' });
});

test('the context names the kind, the namespace and a team that differs from it, once each', () => {
  expect(workloadContext('Pod', 'team-11', 'team-11')).toBe('Pod · namespace team-11');
  expect(workloadContext('Job', 'asr', 'team-03')).toBe('Job · namespace asr · team team-03');
  expect(workloadContext('Pod', undefined)).toBe('Pod');
  expect(workloadContext('', 'ns')).toBe('namespace ns');
});
