// A workload as a planner reads it: its name, then its kind and namespace
// (and team, when it differs) in smaller text; the full key as a tooltip.
import type { ReactNode } from 'react';
import { parseWorkload, workloadContext } from '../format/workloadName';

export function WorkloadLabel({
  workload,
  namespace,
  team,
  children,
}: {
  workload: string | undefined;
  // Leave out what the page already shows (the Chargeback page's breadcrumb names the namespace).
  namespace?: string;
  team?: string;
  // The name as a link or button; the name alone when absent.
  children?: (name: string) => ReactNode;
}) {
  const { name, kind } = parseWorkload(workload);
  const context = workloadContext(kind, namespace, team);
  const full = [team, namespace, workload].filter(Boolean).join(' / ');
  return (
    <span className="workload" title={full}>
      {children ? children(name) : name}
      {context !== '' && <span className="workload-context"> {context}</span>}
    </span>
  );
}
