// A refused scenario: every problem the API found, by line, each with a
// button that selects its line in the editor.
import { scenarioProblems } from './scenarioProblems';

export function ScenarioProblems({ detail, goToLine }: { detail: string; goToLine: (line: number) => void }) {
  const problems = scenarioProblems(detail);
  return (
    <div role="alert" className="error" data-testid="scenario-problems">
      <strong>The scenario was refused ({problems.length === 1 ? 'one problem' : `${problems.length} problems`}):</strong>
      <ul>
        {problems.map((p, index) => (
          <li key={index} data-testid="scenario-problem" data-line={p.line ?? ''}>
            {p.line !== null ? (
              <>
                <button type="button" className="link" onClick={() => goToLine(p.line ?? 1)}>
                  Line {p.line}
                  {p.column !== null ? `, column ${p.column}` : ''}
                </button>
                : {p.message}
              </>
            ) : (
              p.message
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
