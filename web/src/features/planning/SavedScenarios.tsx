// The saved scenarios, newest first, each opened by its link (`?scenario=ID`).
import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { DataTable, type Column } from '../../components/DataTable';
import { QueryView } from '../../components/QueryView';
import { formatTime } from '../../format/numbers';
import type { SavedScenario, ScenarioList } from '../../api/types';

export function SavedScenarios({ list, linkTo }: { list: UseQueryResult<ScenarioList>; linkTo: (id: string) => string }) {
  const columns: Column<SavedScenario>[] = [
    { id: 'id', header: 'Id', numeric: true, cell: (s) => s.id },
    {
      id: 'name',
      header: 'Name',
      cell: (s) => (
        <Link to={linkTo(s.id ?? '')} data-testid={`saved-scenario-${s.id}`}>
          {s.name}
        </Link>
      ),
    },
    { id: 'saved', header: 'Saved at', cell: (s) => formatTime(s.savedAt) },
    { id: 'by', header: 'Saved by', cell: (s) => s.savedBy },
    { id: 'policy', header: 'Policy version', numeric: true, cell: (s) => String(s.policyVersion ?? 0) },
  ];
  return (
    <QueryView query={list} what="the saved scenarios" height={120}>
      {(data) => (
        <DataTable
          caption="Saved scenarios, newest first"
          columns={columns}
          rows={data.scenarios ?? []}
          rowKey={(s) => s.id ?? ''}
          testId="saved-scenarios"
        />
      )}
    </QueryView>
  );
}
