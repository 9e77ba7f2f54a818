// A refused scenario's problems: the API lists each on its own line as
// "scenario:LINE:COLUMN: FIELD: MESSAGE" (the column may be absent), all at
// once (docs/whatif.md). The page lists them by line so a planner can go to
// each; a line that does not have that shape is kept whole.

export interface ScenarioProblem {
  line: number | null;
  column: number | null;
  message: string;
}

const shape = /^scenario:(\d+)(?::(\d+))?:\s*(.*)$/;

export function scenarioProblems(detail: string): ScenarioProblem[] {
  return detail
    .split('\n')
    .map((text) => text.trim())
    .filter((text) => text !== '')
    .map((text) => {
      const match = shape.exec(text);
      if (!match) return { line: null, column: null, message: text };
      return { line: Number(match[1]), column: match[2] ? Number(match[2]) : null, message: match[3] ?? '' };
    });
}

// Where line `line` (1-based) of `text` starts and ends, to select it in the editor.
export function lineRange(text: string, line: number): [number, number] {
  let start = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf('\n', start);
    if (next === -1) return [text.length, text.length];
    start = next + 1;
  }
  const end = text.indexOf('\n', start);
  return [start, end === -1 ? text.length : end];
}
