// TEMPORARY: the API additions of the dashboard contract (FleetService's
// capacity series and pending demand, the fleet summary's used_milli, the
// recommendations' previous run) that are not yet in proto/fleetcap/v1/.
// Once those protos land, run `npm run gen:types`, delete this file and the
// explicit re-exports of it in ./types.ts: the names below are the protos'.
import type * as Gen from './types.gen';

export interface GetCapacitySeriesRequest {
  start?: string;
  end?: string;
  resolution?: Gen.Resolution;
  groupBy?: string[];
  cluster?: string;
  model?: string;
  team?: string;
}

export interface CapacityBucket {
  start?: string;
  // Devices in service x seconds x 1000 (0 when grouped by team).
  capacityMilliSeconds?: string;
  heldMilliSeconds?: string;
  // Held x measured utilisation.
  usedMilliSeconds?: string;
}

export interface CapacitySeriesGroup {
  model?: string;
  cluster?: string;
  team?: string;
  buckets?: CapacityBucket[];
}

export interface CapacitySeries {
  start?: string;
  end?: string;
  resolution?: Gen.Resolution;
  groupBy?: string[];
  groups?: CapacitySeriesGroup[];
}

export interface ListPendingDemandRequest {
  cluster?: string;
}

export interface PendingPod {
  cluster?: string;
  namespace?: string;
  pod?: string;
  team?: string;
  model?: string;
  requestedMilli?: string;
  pendingSince?: string;
}

export interface PendingDemand {
  pods?: PendingPod[];
  requestedMilli?: string;
}

export interface ModelSummary extends Gen.ModelSummary {
  // Held x utilisation over the last closed hour.
  usedMilli?: string;
}

export interface FleetSummary extends Omit<Gen.FleetSummary, 'models'> {
  models?: ModelSummary[];
}

export interface Recommendation extends Gen.Recommendation {
  // Absent: the team and flavor are new in this run.
  previousRecommendedMilli?: string;
}

export interface RecommendationSet extends Omit<Gen.RecommendationSet, 'recommendations'> {
  // 0 (absent): no earlier run.
  previousRunId?: string;
  recommendations?: Recommendation[];
}
