// API answers for the unit tests, in the API's proto3 JSON (int64 as strings,
// zero values omitted).
import type {
  CapacitySeries,
  ChargebackExplanation,
  ChargebackLine,
  ChargebackReport,
  FleetSummary,
  PendingDemand,
  PolicyVersion,
  RecommendationSet,
  WhoAmIResponse,
} from '../api/types';

export const plannerToken = 'fct_planner_secret';
export const teamToken = 'fct_team_secret';
export const whoPlanner: WhoAmIResponse = { tokenId: 't1', role: 'planner' };
export const whoTeam: WhoAmIResponse = { tokenId: 't2', role: 'team:ml', teams: ['ml', 'ml-research', 'ml-serving'] };

export const fleetSummary: FleetSummary = {
  at: '2026-12-04T18:00:00Z',
  models: [
    { model: 'A100-80GB', devices: '16', heldMilli: '12500', usedMilli: '6250' },
    { model: 'H100-SXM5-80GB', devices: '32', heldMilli: '30000', usedMilli: '27000' },
  ],
  devices: '48',
  heldMilli: '42500',
  teams: [{ team: 'ml', heldMilli: '42500' }],
};

// The COLUMNAR layout the Fleet page asks for: devices per hour, as
// milli-device-seconds on the answer's hourly axis.
function hourly(hours: number, capacity: number, held: number, used: number) {
  const column = (devices: number) => Array.from({ length: hours }, () => String(devices * 3_600_000));
  return { capacityMilliSeconds: column(capacity), heldMilliSeconds: column(held), usedMilliSeconds: column(used) };
}

export const capacityByModel: CapacitySeries = {
  start: '2026-12-01T00:00:00Z',
  end: '2026-12-02T00:00:00Z',
  resolution: 'HOUR',
  groupBy: ['model'],
  layout: 'COLUMNAR',
  stepSeconds: 3600,
  groups: [
    { model: 'A100-80GB', ...hourly(24, 16, 12, 6) },
    { model: 'H100-SXM5-80GB', ...hourly(24, 32, 30, 27) },
  ],
};

export const capacityByClusterModel: CapacitySeries = {
  start: '2026-12-01T00:00:00Z',
  end: '2026-12-01T02:00:00Z',
  resolution: 'HOUR',
  groupBy: ['cluster', 'model'],
  layout: 'COLUMNAR',
  stepSeconds: 3600,
  groups: [
    { cluster: 'east', model: 'A100-80GB', ...hourly(2, 16, 12, 4) },
    { cluster: 'west', model: 'H100-SXM5-80GB', ...hourly(2, 32, 30, 24) },
  ],
};

export const pending: PendingDemand = {
  pods: [
    { cluster: 'east', namespace: 'ml-train', pod: 'trainer-0', team: 'ml', model: 'H100-SXM5-80GB', requestedMilli: '8000', pendingSince: '2026-12-04T17:10:00Z' },
    { cluster: 'east', namespace: 'ml-train', pod: 'trainer-1', team: 'ml', model: 'H100-SXM5-80GB', requestedMilli: '500', pendingSince: '2026-12-04T17:12:00Z' },
  ],
  requestedMilli: '8500',
};

const line = (fields: Partial<ChargebackLine>): ChargebackLine => ({ start: '2026-11-27T19:00:00Z', ...fields });

// Totals above 2^53 micro-units check that sums never pass through floats.
export const teamLines: ChargebackLine[] = [
  line({ team: 'ml', heldMilliSeconds: '720000000', usedMilliSeconds: '360000000', directCostMicro: '9007199254740993', idleCostMicro: '1000000', totalCostMicro: '9007199255740993' }),
  line({ team: 'web', heldMilliSeconds: '36000000', usedMilliSeconds: '36000000', directCostMicro: '2500000', totalCostMicro: '2500000' }),
];

export function chargebackFor(params: URLSearchParams): ChargebackReport {
  const groupBy = params.get('group_by') ?? '';
  const previous = isPrevious(params);
  if (groupBy === 'team') {
    if (previous) return { currency: 'USD', totalCostMicro: '5000000', lines: [line({ team: 'web', totalCostMicro: '5000000', directCostMicro: '5000000' })] };
    return { currency: 'USD', totalCostMicro: '9007199258240993', lines: teamLines };
  }
  if (groupBy === 'team,namespace') {
    return {
      currency: 'USD',
      totalCostMicro: '3000000',
      lines: [line({ team: params.get('team') ?? '', namespace: 'ml-train', heldMilliSeconds: '7200000', usedMilliSeconds: '3600000', directCostMicro: '3000000', totalCostMicro: '3000000' })],
    };
  }
  if (groupBy === 'team,namespace,workload') {
    return {
      currency: 'USD',
      totalCostMicro: '3000000',
      lines: [
        line({ team: 'ml', namespace: 'ml-train', workload: 'trainer', heldMilliSeconds: '7200000', usedMilliSeconds: '720000', directCostMicro: '2000000', totalCostMicro: '2000000' }),
        line({ team: 'ml', namespace: 'ml-train', workload: 'notebook', heldMilliSeconds: '3600000', usedMilliSeconds: '3240000', directCostMicro: '1000000', totalCostMicro: '1000000' }),
      ],
    };
  }
  if (groupBy === 'team,workload') {
    return {
      currency: 'USD',
      totalCostMicro: '2000000',
      lines: [
        line({ start: '2026-12-03T10:00:00Z', team: 'ml-research', workload: 'trainer', totalCostMicro: '1000000' }),
        line({ start: '2026-12-03T11:00:00Z', team: 'ml-research', workload: 'trainer', totalCostMicro: '1000000' }),
      ],
    };
  }
  return { currency: 'USD' };
}

// The tests view this custom range; its previous period ends at its start.
export const testRange = { start: '2026-11-27T19:00:00Z', end: '2026-12-04T19:00:00Z' };
export const testRangeQuery = `start=${testRange.start}&end=${testRange.end}`;
function isPrevious(params: URLSearchParams): boolean {
  return params.get('end') === testRange.start;
}

export const explanation: ChargebackExplanation = {
  hour: '2026-12-03T11:00:00Z',
  team: 'ml-research',
  currency: 'USD',
  matchesStored: true,
  lines: [
    {
      line: { team: 'ml-research', cluster: 'east', model: 'A100-80GB', namespace: 'ml-train', workload: 'trainer', lineKind: 'workload', heldMilliSeconds: '3600000', directCostMicro: '900000', idleCostMicro: '100000', totalCostMicro: '1000000' },
      holds: [{ podUid: 'u1' }, { podUid: 'u2' }],
      matchesStored: true,
    },
    {
      line: { team: 'ml-research', cluster: 'east', model: 'A100-80GB', namespace: 'other', workload: 'x', lineKind: 'workload', totalCostMicro: '7' },
      matchesStored: true,
    },
  ],
};

export const recommendationSet: RecommendationSet = {
  runId: '42',
  previousRunId: '41',
  computedAt: '2026-12-04T18:05:00Z',
  policyVersion: 2,
  recommendations: [
    { team: 'ml', flavor: 'h100', demandMilli: '20500', guaranteeMilli: '16000', recommendedMilli: '20500', lendingLimitMilli: '4000', boundBy: 'demand', explanation: 'p95 of held over 14 days', previousRecommendedMilli: '18000' },
    { team: 'web', flavor: 't4', demandMilli: '2000', guaranteeMilli: '4000', recommendedMilli: '4000', borrowingLimitMilli: '0', boundBy: 'guarantee', explanation: 'declared' },
  ],
};

export const policyVersions: PolicyVersion[] = [
  { version: 2, document: 'teams:\n  - name: ml\n    weight: 3\n', appliedAt: '2026-12-02T09:00:00Z', appliedBy: 'token:t0', message: 'more weight to ml', baseVersion: 1 },
  { version: 1, document: 'teams:\n  - name: ml\n    weight: 1\n', appliedAt: '2026-12-01T09:00:00Z', appliedBy: 'init' },
];
