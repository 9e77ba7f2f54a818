// A preset (today, yesterday, the last 24 h / 7 / 30 / 90 days, month to
// date, last month; UTC) or a custom UTC range, written to the URL (`range=`
// or `start=`/`end=`) so the view can be shared.
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { presets, type Preset, type TimeRange } from '../time/range';

const presetLabels: Record<Preset, string> = {
  today: 'Today',
  yesterday: 'Yesterday',
  '24h': 'Last 24 h',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
  month: 'Month to date',
  'last-month': 'Last month',
};

// datetime-local has no zone: the picker speaks UTC and says so.
const toInput = (rfc3339: string) => rfc3339.slice(0, 16);
const fromInput = (local: string) => (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(local) ? `${local}:00Z` : null);

export function TimeRangePicker({ range }: { range: TimeRange }) {
  const [params, setParams] = useSearchParams();
  // The custom form shows for a custom range in the URL, or once asked for;
  // a preset chosen (or reached with Back) closes it.
  const [editing, setEditing] = useState(false);
  const custom = editing || range.preset === null;
  // What is typed in the custom form; until then it shows the range on
  // screen (which Back, a link or another choice may have changed).
  const [draft, setDraft] = useState<{ start: string; end: string } | null>(null);
  const start = draft?.start ?? toInput(range.start);
  const end = draft?.end ?? toInput(range.end);
  const [problem, setProblem] = useState<string | null>(null);

  const choosePreset = (preset: string) => {
    const next = new URLSearchParams(params);
    next.delete('start');
    next.delete('end');
    next.set('range', preset);
    setEditing(false);
    setDraft(null);
    setProblem(null);
    setParams(next);
  };

  const openCustom = () => {
    setDraft(null);
    setProblem(null);
    setEditing(true);
  };

  const applyCustom = (event: FormEvent) => {
    event.preventDefault();
    const s = fromInput(start);
    const e = fromInput(end);
    if (!s || !e) return setProblem('Give both the start and the end.');
    if (Date.parse(e) <= Date.parse(s)) return setProblem('The end must be after the start.');
    setProblem(null);
    setDraft(null);
    setEditing(false);
    const next = new URLSearchParams(params);
    next.delete('range');
    next.set('start', s);
    next.set('end', e);
    setParams(next);
  };

  return (
    <div className="range-picker">
      <div role="group" aria-label="Time range">
        {presets.map((preset) => (
          <button
            key={preset}
            type="button"
            aria-pressed={!custom && range.preset === preset}
            onClick={() => choosePreset(preset)}
          >
            {presetLabels[preset]}
          </button>
        ))}
        <button type="button" aria-pressed={custom} onClick={openCustom}>
          Custom
        </button>
      </div>
      {custom && (
        <form onSubmit={applyCustom} className="custom-range">
          <label>
            Start (UTC)
            <input type="datetime-local" value={start} onChange={(e) => setDraft({ start: e.target.value, end })} />
          </label>
          <label>
            End (UTC)
            <input type="datetime-local" value={end} onChange={(e) => setDraft({ start, end: e.target.value })} />
          </label>
          <button type="submit">Apply</button>
          {problem && <span role="alert">{problem}</span>}
        </form>
      )}
      {range.problem && <p role="status">{range.problem}</p>}
      <p className="range-shown" data-testid="range-shown">
        {range.start.replace('T', ' ')} – {range.end.replace('T', ' ')}
      </p>
    </div>
  );
}
