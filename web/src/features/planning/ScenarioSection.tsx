// The what-if half of the Planning page (planners and admins): a scenario
// document edited here, run against the baseline, saved with a name, and
// the saved ones listed and opened (`?scenario=ID` in the URL).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getScenario, listScenarios, runScenario, saveScenario } from '../../api/endpoints';
import { ApiError } from '../../api/errors';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Skeleton } from '../../components/Skeleton';
import type { ScenarioComparison } from '../../api/types';
import exampleScenario from '../../../../docs/examples/whatif-scenario.yaml?raw';
import { ScenarioComparisonView } from './ScenarioComparisonView';
import { ScenarioProblems } from './ScenarioProblems';
import { SavedScenarios } from './SavedScenarios';
import { lineRange } from './scenarioProblems';

interface Shown {
  comparison: ScenarioComparison;
  // What the comparison is: a run of the document on screen, or a saved one.
  label: string;
}

export function ScenarioSection({
  scenarioId,
  setScenarioId,
  linkTo,
}: {
  scenarioId: string | null;
  setScenarioId: (id: string | null) => void;
  linkTo: (id: string) => string;
}) {
  const queryClient = useQueryClient();
  const editor = useRef<HTMLTextAreaElement>(null);
  const [document, setDocument] = useState(exampleScenario);
  const [name, setName] = useState('');
  const [shown, setShown] = useState<Shown | null>(null);
  const list = useQuery({ queryKey: ['scenarios'], queryFn: () => listScenarios() });
  const saved = useQuery({
    queryKey: ['scenario', scenarioId],
    queryFn: () => getScenario(scenarioId ?? ''),
    enabled: scenarioId !== null,
    staleTime: Infinity,
  });
  // The saved scenario whose document is in the editor.
  const opened = useRef<string | null>(null);
  const run = useMutation({ mutationFn: (yaml: string) => runScenario(yaml) });
  const save = useMutation({
    mutationFn: ({ label, yaml }: { label: string; yaml: string }) => saveScenario(label, yaml),
    onSuccess: (answer) => {
      // The editor already holds what was saved: it is shown, not opened again.
      opened.current = answer.id ?? null;
      if (answer.result) setShown({ comparison: answer.result, label: `saved scenario ${answer.id} “${answer.name}”` });
      queryClient.setQueryData(['scenario', answer.id ?? ''], answer);
      void queryClient.invalidateQueries({ queryKey: ['scenarios'] });
      setScenarioId(answer.id ?? null);
    },
  });

  // Opening a saved scenario puts its document in the editor and its result
  // (as saved) on screen, once per scenario opened.
  useEffect(() => {
    const data = saved.data;
    if (!data || opened.current === data.id) return;
    opened.current = data.id ?? null;
    setDocument(data.scenarioYaml ?? '');
    setName(data.name ?? '');
    if (data.result) setShown({ comparison: data.result, label: `saved scenario ${data.id} “${data.name}”, as saved ${data.savedAt?.slice(0, 16).replace('T', ' ') ?? ''} UTC` });
    run.reset();
    save.reset();
  }, [saved.data, run, save]);

  const onRun = (event: FormEvent) => {
    event.preventDefault();
    save.reset();
    run.mutate(document, { onSuccess: (comparison) => setShown({ comparison, label: 'the document above, just run' }) });
  };
  const onSave = (event: FormEvent) => {
    event.preventDefault();
    run.reset();
    save.mutate({ label: name.trim(), yaml: document });
  };
  const goToLine = (line: number) => {
    const area = editor.current;
    if (!area) return;
    const [start, end] = lineRange(area.value, line);
    area.focus();
    area.setSelectionRange(start, end);
  };

  const failure = run.error ?? save.error;
  const refused = failure instanceof ApiError && failure.kind === 'bad_request' && /^scenario:\d/m.test(failure.detail);
  const busy = run.isPending || save.isPending;

  return (
    <>
      <form onSubmit={onRun} aria-label="Scenario">
        <label htmlFor="scenario-yaml">Scenario (YAML; docs/whatif.md lists every field)</label>
        <textarea
          id="scenario-yaml"
          ref={editor}
          className="scenario-editor"
          data-testid="scenario-yaml"
          rows={18}
          spellCheck={false}
          value={document}
          onChange={(e) => setDocument(e.target.value)}
        />
        <div className="controls">
          <button type="submit" disabled={busy}>
            Run against the baseline
          </button>
          <button type="button" disabled={busy} onClick={() => setDocument(exampleScenario)}>
            Start from the example
          </button>
        </div>
      </form>
      <form onSubmit={onSave} className="controls" aria-label="Save the scenario">
        <label>
          Name
          <input value={name} maxLength={128} required onChange={(e) => setName(e.target.value)} />
        </label>
        <button type="submit" disabled={busy || name.trim() === ''}>
          Save
        </button>
        {save.isSuccess && (
          <span role="status" data-testid="scenario-saved">
            Saved as scenario {save.data.id}.
          </span>
        )}
      </form>
      {failure !== null &&
        (refused ? (
          <ScenarioProblems detail={(failure as ApiError).detail} goToLine={goToLine} />
        ) : (
          <ErrorMessage error={failure} what={save.error ? 'the saved scenario' : 'the scenario comparison'} />
        ))}
      {saved.isError && <ErrorMessage error={saved.error} what={`saved scenario ${scenarioId}`} />}
      {busy ? (
        <Skeleton label="the scenario comparison" height={480} />
      ) : (
        shown && (
          <section aria-label="Scenario against the baseline">
            <h3>
              Baseline against <span data-testid="scenario-shown">{shown.label}</span>
            </h3>
            <ScenarioComparisonView comparison={shown.comparison} />
          </section>
        )
      )}
      {scenarioId !== null && saved.isPending && <Skeleton label={`saved scenario ${scenarioId}`} height={480} />}
      <h3>Saved scenarios</h3>
      <SavedScenarios list={list} linkTo={linkTo} />
    </>
  );
}
