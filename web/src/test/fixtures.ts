// API answers for the unit tests, in the API's proto3 JSON (int64 as strings,
// zero values omitted).
import type {
  Assets,
  BudgetReport,
  CapacitySeries,
  ChargebackExplanation,
  ChargebackLine,
  ChargebackReport,
  DeviceHolds,
  FleetSummary,
  Forecast,
  PendingDemand,
  PolicyVersion,
  RecommendationSet,
  RightsizingReport,
  SavedScenario,
  ScenarioComparison,
  ScenarioSide,
  SpendChangeReport,
  WasteReport,
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
  line({ team: 'ml', heldMilliSeconds: '720000000', usedMilliSeconds: '360000000', observedMilliSeconds: '720000000', directCostMicro: '9007199254740993', idleCostMicro: '1000000', totalCostMicro: '9007199255740993' }),
  line({ team: 'web', heldMilliSeconds: '36000000', usedMilliSeconds: '36000000', observedMilliSeconds: '36000000', directCostMicro: '2500000', totalCostMicro: '2500000' }),
];

export const modelLines: ChargebackLine[] = [
  line({ model: 'H100-SXM5-80GB', heldMilliSeconds: '720000000', usedMilliSeconds: '360000000', observedMilliSeconds: '720000000', directCostMicro: '9007199254740993', idleCostMicro: '1000000', totalCostMicro: '9007199255740993' }),
  line({ model: 'T4', heldMilliSeconds: '36000000', usedMilliSeconds: '36000000', observedMilliSeconds: '36000000', directCostMicro: '2000000', totalCostMicro: '2000000' }),
  line({ model: 'A100-80GB', lineKind: 'idle', directCostMicro: '0', idleCostMicro: '0', totalCostMicro: '500000' }),
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
      lines: [line({ team: params.get('team') ?? '', namespace: 'ml-train', heldMilliSeconds: '7200000', usedMilliSeconds: '3600000', observedMilliSeconds: '7200000', directCostMicro: '3000000', totalCostMicro: '3000000' })],
    };
  }
  if (groupBy === 'team,namespace,workload') {
    return {
      currency: 'USD',
      totalCostMicro: '3000000',
      lines: [
        line({ team: 'ml', namespace: 'ml-train', workload: 'trainer', heldMilliSeconds: '7200000', usedMilliSeconds: '720000', observedMilliSeconds: '7200000', directCostMicro: '2000000', totalCostMicro: '2000000' }),
        line({ team: 'ml', namespace: 'ml-train', workload: 'notebook', heldMilliSeconds: '3600000', usedMilliSeconds: '3240000', observedMilliSeconds: '3600000', directCostMicro: '1000000', totalCostMicro: '1000000' }),
      ],
    };
  }
  if (groupBy === 'model' && params.get('resolution') === 'none') {
    // The same total as by team (the same window and filters), summed per model.
    if (previous) return { currency: 'USD', totalCostMicro: '5000000', lines: [line({ model: 'T4', totalCostMicro: '5000000', directCostMicro: '5000000' })] };
    return { currency: 'USD', totalCostMicro: '9007199258240993', lines: modelLines };
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
    { team: 'ml', flavor: 'h100', demandMilli: '20500', guaranteeMilli: '16000', recommendedMilli: '20500', lendingLimitMilli: '4000', boundBy: 'demand', explanation: 'p95 of held over 14 days', previousRecommendedMilli: '18000', measuredDemandMilli: '17084', kueueLendingLimit: '8500m' },
    { team: 'web', flavor: 't4', demandMilli: '2000', guaranteeMilli: '4000', recommendedMilli: '4000', borrowingLimitMilli: '0', boundBy: 'guarantee', explanation: 'declared', kueueBorrowingLimit: '0', kueueLendingLimit: '0' },
  ],
};

export const policyVersions: PolicyVersion[] = [
  { version: 2, document: 'teams:\n  - name: ml\n    weight: 3\n', appliedAt: '2026-12-02T09:00:00Z', appliedBy: 'token:t0', message: 'more weight to ml', baseVersion: 1 },
  { version: 1, document: 'teams:\n  - name: ml\n    weight: 1\n', appliedAt: '2026-12-01T09:00:00Z', appliedBy: 'init' },
];

// ---- Planning: a stored forecast and a what-if comparison.

const days = (start: string, n: number, value: (i: number) => Record<string, string>) =>
  Array.from({ length: n }, (_, i) => ({
    start: new Date(Date.parse(start) + i * 86_400_000).toISOString().replace('.000Z', 'Z'),
    ...value(i),
  }));

// A daily forecast over 4 days of history and 5 ahead. The flavor's total
// (team null) has capacity and runs out within the horizon, the p90 a day
// before the p50; a team's series has neither, and a fallback model.
export function forecastFor(flavor: string, team: string | null): Forecast {
  return {
    runId: '12',
    computedAt: '2026-12-05T01:00:00Z',
    flavor,
    team: team ?? undefined,
    what: 'held',
    horizonHours: 2160,
    resolution: 'DAY',
    history: days('2026-12-01T00:00:00Z', 4, (i) => ({ milli: String(20_000 + i * 1000) })),
    forecast: days('2026-12-05T00:00:00Z', 5, (i) => ({ p50Milli: String(24_000 + i * 2500), p90Milli: String(26_000 + i * 3000) })),
    ...(team === null
      ? {
          capacityHistory: days('2026-12-01T00:00:00Z', 4, () => ({ milli: '32000' })),
          capacityForecast: days('2026-12-05T00:00:00Z', 5, () => ({ milli: '32000' })),
          exhaustion: { p50Day: '2026-12-09T00:00:00Z', p90Day: '2026-12-08T00:00:00Z' },
        }
      : {}),
    model: team === null ? 'holt_winters_weekly' : 'holt_linear',
    fit: [
      { name: 'alpha', value: 0.31 },
      { name: 'in_sample_mase', value: 0.82 },
    ],
    fallbackReason: team === null ? undefined : 'fewer than 336 hours of history (96): no weekly season',
  };
}

export const planningPolicyDocument =
  'version: 1\nteams:\n  - name: ml\n  - name: web\nflavors:\n  - name: h100\n    model: H100\n  - name: t4\n    model: T4\n';

const side = (over: Partial<ScenarioSide>): ScenarioSide => ({
  policyVersion: 2,
  recommendations: [
    { team: 'ml', flavor: 'h100', demandMilli: '20500', recommendedMilli: '20500', boundBy: 'demand' },
    { team: 'web', flavor: 't4', demandMilli: '2000', recommendedMilli: '4000', boundBy: 'guarantee' },
  ],
  flavors: [
    { flavor: 'h100', capacityMilli: '32000', heldMilliHours: '15252000', capacityMilliHours: '23808000', utilisationPpm: '640625', exhaustedP50: '2027-02-03T00:00:00Z', model: 'holt_winters_weekly' },
    { flavor: 't4', capacityMilli: '8000', heldMilliHours: '1488000', capacityMilliHours: '5952000', utilisationPpm: '250000', model: 'recent_average', heldUnknown: true },
  ],
  projectionModels: { holt_winters_weekly: '1', recent_average: '1' },
  ...over,
});

// Totals above 2^53 micro-units: the bill is summed and shown without floats.
export const scenarioComparison: ScenarioComparison = {
  recommendationsAt: '2027-02-01T00:00:00Z',
  monthStart: '2027-01-01T00:00:00Z',
  monthEnd: '2027-02-01T00:00:00Z',
  horizonEnd: '2027-03-05T00:00:00Z',
  historyEnd: '2026-12-05T00:00:00Z',
  currency: 'USD',
  baseline: side({
    bills: [
      { team: 'ml', micro: '9007199254740993', heldMilliHours: '15252000' },
      { team: 'web', micro: '1250000', heldMilliHours: '1488000' },
    ],
    idleMicro: '500000',
    totalMicro: '9007199256490993',
  }),
  scenario: side({
    recommendations: [
      { team: 'ml', flavor: 'h100', demandMilli: '41000', recommendedMilli: '28000', boundBy: 'fair_share' },
      { team: 'web', flavor: 't4', demandMilli: '2000', recommendedMilli: '4000', boundBy: 'guarantee' },
    ],
    bills: [
      { team: 'ml', micro: '18014398509481986', heldMilliHours: '23808000' },
      // No stored forecast covers web's t4 series: its bill is unknown.
      { team: 'web', micro: '1250000', heldMilliHours: '1488000', unknownFlavors: ['t4'] },
    ],
    idleMicro: '0',
    totalMicro: '18014398510731986',
    flavors: [
      { flavor: 'h100', capacityMilli: '32000', heldMilliHours: '23808000', capacityMilliHours: '23808000', utilisationPpm: '1000000', exhaustedP50: '2026-12-20T00:00:00Z', exhaustedP90: '2026-12-12T00:00:00Z', model: 'holt_winters_weekly' },
      { flavor: 't4', capacityMilli: '8000', heldMilliHours: '1488000', capacityMilliHours: '5952000', utilisationPpm: '250000', model: 'recent_average', heldUnknown: true },
    ],
  }),
};

export const savedScenarios: SavedScenario[] = [
  { id: '3', name: 'retire G2s', policyVersion: 2, savedAt: '2026-12-04T10:00:00Z', savedBy: 'token:t1' },
];

export const savedScenarioYaml = 'version: 1\ndescription: retire G2s\n';

// GET /v1/fleet/assets: by model (A100 idles most; T4 has no chargeback yet,
// so its used and idle cost are unknown), by device on node n1 of c1 (g1
// held 90 device-seconds, unread: used 0; g0 used half its observed time).
export function assetsFor(params: URLSearchParams): Assets {
  const base = { start: params.get('start') ?? '', end: params.get('end') ?? '', currency: 'EUR' };
  if (params.get('group_by') === 'device') {
    return {
      ...base,
      groupBy: 'device',
      groups: '2',
      rows: [
        { model: 'A100', cluster: 'c1', node: 'n1', device: 'g1', devices: '1', capacityMilliSeconds: '36000000', heldMilliSeconds: '90000', usedMilliSeconds: '0', observedMilliSeconds: '0', idleMilliSeconds: '35910000', idleCostMicro: '2500001' },
        { model: 'A100', cluster: 'c1', node: 'n1', device: 'g0', devices: '1', capacityMilliSeconds: '36000000', heldMilliSeconds: '18000000', usedMilliSeconds: '4500000', observedMilliSeconds: '9000000', idleMilliSeconds: '18000000', idleCostMicro: '1249999' },
      ],
      totals: { devices: '2', capacityMilliSeconds: '72000000', heldMilliSeconds: '18090000', idleMilliSeconds: '53910000', idleCostMicro: '3750000' },
    };
  }
  return {
    ...base,
    groupBy: 'model',
    groups: '2',
    rows: [
      { model: 'A100', devices: '8', capacityMilliSeconds: '288000000', heldMilliSeconds: '180000000', usedMilliSeconds: '90000000', observedMilliSeconds: '120000000', idleMilliSeconds: '108000000', idleCostMicro: '9007199254740993' },
      { model: 'T4', devices: '2', capacityMilliSeconds: '72000000', heldMilliSeconds: '7200000', idleMilliSeconds: '64800000' },
    ],
    totals: { devices: '10', capacityMilliSeconds: '360000000', heldMilliSeconds: '187200000', idleMilliSeconds: '172800000' },
  };
}

export const deviceHoldsOfG0: DeviceHolds = {
  cluster: 'c1',
  device: 'g0',
  holds: [
    { pod: 'train-0', namespace: 'ml-train', workload: 'Job/train', team: 'ml', milli: '500', heldFrom: '2026-11-28T00:00:00Z', heldTo: '2026-11-28T10:00:00Z', heldSeconds: '36000', heldMilliSeconds: '18000000' },
    { pod: 'probe-0', namespace: 'ml-train', workload: 'Job/probe', team: 'ml', milli: '500', heldFrom: '2026-11-28T10:00:00Z', heldTo: '2026-11-28T10:00:07Z', heldSeconds: '7', heldMilliSeconds: '3500' },
  ],
};

// ---- Insights (proto/fleetcap/v1/insights.proto): the fleet's answers; a
// team's are the same narrowed to its subtree (test/server.ts).

export const wasteReport: WasteReport = {
  start: testRange.start,
  end: testRange.end,
  currency: 'EUR',
  // The workloads' sum: 9,000,000 + 3,345,678.
  wastedCostMicro: '12345678',
  wastedMilliSeconds: '111600000',
  unknownMilliSeconds: '7200000',
  idleBelow: 0.05,
  idleForSeconds: '14400',
  workloadCount: 3,
  efficiency: [
    { signal: 'mixed', score: 0.42, heldMilliSeconds: '72000000', observedMilliSeconds: '64800000', activeMilliSeconds: '27216000' },
    { team: 'ml', signal: 'sm_active', score: 0.375, heldMilliSeconds: '57600000', observedMilliSeconds: '57600000', activeMilliSeconds: '21600000' },
    { team: 'web', signal: 'duty_cycle', heldMilliSeconds: '7200000' },
  ],
  teams: [
    { team: 'ml', wastedCostMicro: '9000000', wastedMilliSeconds: '93600000' },
    { team: 'ml-serving', wastedCostMicro: '3345678', wastedMilliSeconds: '18000000', unknownMilliSeconds: '7200000' },
  ],
  workloads: [
    {
      team: 'ml',
      namespace: 'train',
      workload: 'Job/train-a',
      heldMilliSeconds: '129600000',
      wastedMilliSeconds: '93600000',
      wastedCostMicro: '9000000',
      runCount: 2,
      runs: [
        {
          cluster: 'c1', podUid: 'p1', namespace: 'train', workload: 'Job/train-a', team: 'ml', model: 'A100',
          start: '2026-12-01T00:00:00Z', end: '2026-12-01T06:00:00Z', devicesMilli: '4000', meanActivity: 0.012,
          signal: 'sm_active', wastedMilliSeconds: '86400000', wastedCostMicro: '6750000',
        },
        {
          cluster: 'c1', podUid: 'p2', namespace: 'train', workload: 'Job/train-a', team: 'ml', model: 'A100',
          start: '2026-12-02T00:00:00Z', end: '2026-12-02T04:00:00Z', devicesMilli: '500', meanActivity: 0.03,
          signal: 'duty_cycle', wastedMilliSeconds: '7200000', wastedCostMicro: '2250000',
        },
      ],
    },
    {
      team: 'ml-serving',
      namespace: 'serve',
      workload: 'Deployment/api',
      heldMilliSeconds: '36000000',
      wastedMilliSeconds: '18000000',
      wastedCostMicro: '3345678',
      unknownMilliSeconds: '7200000',
      runCount: 25,
      busyButLight: true,
      runs: [
        {
          cluster: 'c2', podUid: 'p9', namespace: 'serve', workload: 'Deployment/api', team: 'ml-serving', model: 'H100',
          start: '2026-12-03T00:00:00Z', end: '2026-12-03T05:00:00Z', devicesMilli: '1000', meanActivity: 0.04,
          signal: 'sm_active', wastedMilliSeconds: '18000000', wastedCostMicro: '3345678',
        },
      ],
    },
  ],
};

export const rightsizingReport: RightsizingReport = {
  start: '2026-11-20T00:00:00Z',
  end: '2026-12-04T00:00:00Z',
  computedAt: '2026-12-04T01:00:00Z',
  currency: 'EUR',
  // Beyond 2^53 micro-units: printed without floats.
  savingsMicroPerMonth: '9007199254990993',
  recommendationCount: 2,
  recommendations: [
    {
      team: 'ml', namespace: 'train', workload: 'Job/train-a', cluster: 'c1', model: 'A100', kind: 'cheaper_flavor',
      current: 'flavor a100-pool', proposed: 'flavor v100-pool', currentMilli: '8000', proposedMilli: '8000',
      savingsMicroPerMonth: '9007199254740993', evidence: 'throughput per cost 2.1x on v100-pool for class training',
      observedMinutes: '20160', confidence: 'high',
    },
    {
      team: 'ml-serving', namespace: 'serve', workload: 'Deployment/api', cluster: 'c2', model: 'H100', kind: 'smaller_slice',
      current: '1 x H100-SXM5-80GB', proposed: 'MIG 3g.40gb', currentMilli: '1000', proposedMilli: '429',
      savingsMicroPerMonth: '250000', evidence: 'p99 memory 12.0 GiB, p95 activity 18%',
      observedMinutes: '45', confidence: 'low',
    },
  ],
};

export const spendChangeReport: SpendChangeReport = {
  previousStart: '2026-11-20T19:00:00Z',
  start: testRange.start,
  end: testRange.end,
  currency: 'EUR',
  previousCostMicro: '100000000',
  currentCostMicro: '130500000',
  changeMicro: '30500000',
  drivers: [
    {
      name: 'started',
      changeMicro: '40000000',
      top: [
        { team: 'ml', namespace: 'train', workload: 'Job/train-b', model: 'A100', changeMicro: '30000000' },
        { team: 'ml-serving', namespace: 'serve', workload: 'Deployment/api-v2', model: 'H100', changeMicro: '10000000' },
      ],
    },
    { name: 'ended', changeMicro: '-12000000', top: [{ team: 'ml', namespace: 'train', workload: 'Job/old', model: 'A100', changeMicro: '-12000000' }] },
    { name: 'price', changeMicro: '2500000' },
    {
      name: 'idle_share',
      top: [
        { team: 'idle', model: 'A100', changeMicro: '1000000' },
        { team: 'ml', changeMicro: '-1000000' },
      ],
    },
  ],
};

export const budgetReport: BudgetReport = {
  currency: 'EUR',
  budgets: [
    {
      team: 'ml', month: '2026-12', amountMicro: '1000000000', spentMicro: '600000000', through: '2026-12-04T18:00:00Z',
      forecastRestMicro: '500000000', projectedMicro: '1100000000', status: 'projected_over', method: 'the last 7 days’ mean per day',
    },
    {
      team: 'ml-serving', month: '2026-12', amountMicro: '800000000', spentMicro: '100000000', through: '2026-12-04T18:00:00Z',
      forecastRestMicro: '300000000', projectedMicro: '400000000', status: 'under', method: 'the last 7 days’ mean per day',
    },
    {
      team: 'web', month: '2026-12', amountMicro: '500000000', spentMicro: '520000000', through: '2026-12-04T18:00:00Z',
      forecastRestMicro: '200000000', projectedMicro: '720000000', status: 'over', method: 'the last 7 days’ mean per day',
    },
  ],
};
