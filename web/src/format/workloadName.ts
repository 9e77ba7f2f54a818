// A chargeback line's workload is its pods' top controller as `Kind/name`
// (docs/attribution.md), e.g. `Pod/openb-pod-4895` or `Job/asr`; the
// namespace and team are fields of their own. Pages show the name first and
// the kind and namespace as secondary text, never the three joined with
// slashes (`team-11/team-11/Pod/openb-pod-4895`).

export interface WorkloadName {
  // What a planner reads first: the controller's name.
  name: string;
  // The controller's kind (Pod, Job, Deployment, ...), '' when the workload has none.
  kind: string;
}

export function parseWorkload(workload: string | undefined): WorkloadName {
  const value = workload ?? '';
  if (value === '') return { name: '(none)', kind: '' };
  const slash = value.indexOf('/');
  // A Kubernetes kind is one word; anything else is shown whole.
  if (slash <= 0 || slash === value.length - 1 || !/^[A-Za-z][A-Za-z0-9]*$/.test(value.slice(0, slash))) {
    return { name: value, kind: '' };
  }
  return { name: value.slice(slash + 1), kind: value.slice(0, slash) };
}

// The secondary text: the kind and where the workload runs, each said once
// (a namespace named after its team is not named twice).
export function workloadContext(kind: string, namespace: string | undefined, team?: string): string {
  const parts: string[] = [];
  if (kind !== '') parts.push(kind);
  if (namespace) parts.push(`namespace ${namespace}`);
  if (team && team !== namespace) parts.push(`team ${team}`);
  return parts.join(' · ');
}
