// The API's codes (proto/fleetcap/v1/insights.proto) in words. A code this
// page does not know yet is shown as it came, underscores as spaces, rather
// than hidden.

const asWords = (code: string | undefined) => (code ?? '').replace(/_/g, ' ');

const signals: Record<string, string> = {
  sm_active: 'SM activity',
  duty_cycle: 'duty cycle',
  mixed: 'SM activity where measured, else duty cycle',
};
export const signalWords = (signal: string | undefined) => signals[signal ?? ''] ?? asWords(signal);

const kinds: Record<string, string> = {
  fewer_devices: 'Fewer devices',
  smaller_slice: 'A smaller slice',
  cheaper_flavor: 'A cheaper flavor',
};
export const kindWords = (kind: string | undefined) => kinds[kind ?? ''] ?? asWords(kind);

const drivers: Record<string, string> = {
  started: 'Workloads that started',
  ended: 'Workloads that ended',
  held_time: 'More or less device time held',
  model_mix: 'Model mix',
  price: 'Price changes',
  idle_share: 'Idle share received',
  shared_and_fixed: 'Shared and fixed costs',
};
export const driverWords = (name: string | undefined) => drivers[name ?? ''] ?? asWords(name);

export type BudgetStatus = 'under' | 'projected_over' | 'over';
const statuses: Record<BudgetStatus, string> = {
  under: 'Under budget',
  projected_over: 'Projected over budget',
  over: 'Over budget',
};
export const isBudgetStatus = (status: string | undefined): status is BudgetStatus =>
  status !== undefined && status in statuses;
export const statusWords = (status: string | undefined) => (isBudgetStatus(status) ? statuses[status] : asWords(status));

// A duration in seconds (the policy's idle_for) as hours and minutes.
export function durationWords(seconds: string | undefined): string {
  const total = Number(seconds ?? '0');
  const hours = Math.floor(total / 3600);
  const minutes = Math.round((total % 3600) / 60);
  if (hours === 0) return `${minutes} min`;
  return minutes === 0 ? `${hours} h` : `${hours} h ${minutes} min`;
}
