// The options of a select of one chargeback field (team, namespace, workload,
// model, cluster, line kind): what the chart stacks by and the table groups by.
import { stackFields, stackLabels } from './costSeries';

export function StackFieldOptions() {
  return (
    <>
      {stackFields.map((field) => (
        <option key={field} value={field}>
          {stackLabels[field]}
        </option>
      ))}
    </>
  );
}
