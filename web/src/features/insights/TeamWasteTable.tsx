import { DataTable, type Column } from '../../components/DataTable';
import { Figure } from '../../components/Figure';
import { formatDeviceHours, formatMoney } from '../../format/numbers';
import type { EfficiencyScore, TeamWaste, WasteReport } from '../../api/types';
import { EfficiencyFigure } from './EfficiencyFigure';

interface TeamRow {
  team: string;
  waste: TeamWaste | undefined;
  efficiency: EfficiencyScore | undefined;
}

// Each team's waste and efficiency, in the API's order (every team with held
// time, the most wasted first), then any team with waste but no score.
export function teamRows(report: WasteReport): TeamRow[] {
  const waste = new Map((report.teams ?? []).map((t) => [t.team ?? '', t]));
  const scored = (report.efficiency ?? []).filter((e) => (e.team ?? '') !== '');
  const rows: TeamRow[] = scored.map((e) => ({ team: e.team ?? '', waste: waste.get(e.team ?? ''), efficiency: e }));
  const seen = new Set(rows.map((r) => r.team));
  for (const [team, t] of waste) if (!seen.has(team)) rows.push({ team, waste: t, efficiency: undefined });
  return rows;
}

export function TeamWasteTable({ report, currency }: { report: WasteReport; currency: string }) {
  const rows = teamRows(report);
  if (rows.length === 0) return null;
  const columns: Column<TeamRow>[] = [
    { id: 'team', header: 'Team', cell: (r) => r.team },
    {
      id: 'cost',
      header: 'Wasted',
      numeric: true,
      cell: (r) => (
        <Figure testId={`insights-team-cost-${r.team}`} value={r.waste?.wastedCostMicro ?? '0'} text={formatMoney(r.waste?.wastedCostMicro, currency)} />
      ),
    },
    { id: 'time', header: 'Idle device-hours', numeric: true, cell: (r) => formatDeviceHours(r.waste?.wastedMilliSeconds) },
    { id: 'unknown', header: 'No telemetry device-hours', numeric: true, cell: (r) => formatDeviceHours(r.waste?.unknownMilliSeconds) },
    {
      id: 'efficiency',
      header: 'Efficiency',
      cell: (r) => <EfficiencyFigure score={r.efficiency} testId={`insights-team-efficiency-${r.team}`} />,
    },
  ];
  return (
    <DataTable
      caption="Per team: waste and efficiency (active of observed held time)"
      columns={columns}
      rows={rows}
      rowKey={(r) => r.team}
      testId="insights-teams-table"
    />
  );
}
