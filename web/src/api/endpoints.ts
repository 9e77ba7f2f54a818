// The routes the dashboard reads, typed (docs/dashboard.md lists which
// page number comes from which call).
import { apiGet, apiGetText, apiPost, type QueryParams } from './client';
import type {
  Assets,
  BudgetReport,
  CapacitySeries,
  ChargebackExplanation,
  ChargebackReport,
  DeviceHolds,
  FleetSummary,
  Forecast,
  ListPolicyVersionsResponse,
  PendingDemand,
  PolicyVersion,
  RecommendationSet,
  RightsizingReport,
  SavedScenario,
  ScenarioComparison,
  SavedView,
  ScenarioList,
  SpendChangeReport,
  ViewList,
  WasteReport,
  WhoAmIResponse,
} from './types';

export const whoAmI = (token?: string) => apiGet<WhoAmIResponse>('/v1/tokens/self', {}, token);
export const fleetSummary = (params: QueryParams = {}) => apiGet<FleetSummary>('/v1/fleet/summary', params);
export const capacitySeries = (params: QueryParams) => apiGet<CapacitySeries>('/v1/fleet/capacity', params);
export const assets = (params: QueryParams) => apiGet<Assets>('/v1/fleet/assets', params);
// The same rows as CSV, every figure exact: what `fleetcapctl assets --format csv` prints.
export const assetsExport = (params: QueryParams) => apiGetText('/v1/fleet/assets/export', { format: 'csv', ...params });
export const deviceHolds = (params: QueryParams) => apiGet<DeviceHolds>('/v1/fleet/assets/holds', params);
export const pendingDemand = (params: QueryParams = {}) => apiGet<PendingDemand>('/v1/fleet/pending', params);
export const chargeback = (params: QueryParams) => apiGet<ChargebackReport>('/v1/chargeback', params);
export const chargebackExplain = (params: QueryParams) =>
  apiGet<ChargebackExplanation>('/v1/chargeback/explain', params);
export const chargebackExport = (format: 'csv' | 'focus', params: QueryParams) =>
  apiGetText('/v1/chargeback/export', { format, ...params });
export const recommendations = () => apiGet<RecommendationSet>('/v1/recommendations');
export const recommendationManifests = (format: 'kueue' | 'volcano') =>
  apiGetText('/v1/recommendations/manifests', { format });
export const activePolicy = (version?: number) =>
  apiGet<PolicyVersion>('/v1/policy', version ? { version: String(version) } : {});
export const policyHistory = () => apiGet<ListPolicyVersionsResponse>('/v1/policy/history');
export const forecast = (params: QueryParams) => apiGet<Forecast>('/v1/forecast', params);
export const runScenario = (scenarioYaml: string) =>
  apiPost<ScenarioComparison>('/v1/scenarios/run', { scenarioYaml });
export const saveScenario = (name: string, scenarioYaml: string) =>
  apiPost<SavedScenario>('/v1/scenarios', { name, scenarioYaml });
export const listScenarios = () => apiGet<ScenarioList>('/v1/scenarios');
export const getScenario = (id: string) => apiGet<SavedScenario>('/v1/scenarios/get', { id });
export const listViews = () => apiGet<ViewList>('/v1/views');
export const saveView = (view: { name: string; path: string; query: string }) => apiPost<SavedView>('/v1/views', view);
export const removeView = (name: string) => apiPost<unknown>('/v1/views/remove', { name });
export const insightsWaste = (params: QueryParams) => apiGet<WasteReport>('/v1/insights/waste', params);
export const insightsRightsizing = (params: QueryParams) => apiGet<RightsizingReport>('/v1/insights/rightsizing', params);
export const insightsChanges = (params: QueryParams) => apiGet<SpendChangeReport>('/v1/insights/changes', params);
export const insightsBudgets = (params: QueryParams) => apiGet<BudgetReport>('/v1/insights/budgets', params);
