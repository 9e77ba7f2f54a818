// The API's JSON types: generated from the protos, plus the contract's
// additions not yet in them (pending-types.ts; explicit exports win over `*`).
export * from './types.gen';
export type {
  CapacityBucket,
  CapacitySeries,
  CapacitySeriesGroup,
  FleetSummary,
  GetCapacitySeriesRequest,
  ListPendingDemandRequest,
  ModelSummary,
  PendingDemand,
  PendingPod,
  Recommendation,
  RecommendationSet,
} from './pending-types';
