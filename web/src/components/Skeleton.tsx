// A grey block of the size of what is loading: the page keeps its layout and
// never shows an empty chart or a table of zeros before the data is there.
export function Skeleton({ label, height = 240 }: { label: string; height?: number }) {
  return (
    <div className="skeleton" style={{ height }} role="status" aria-live="polite" aria-busy="true">
      <span className="visually-hidden">Loading {label}…</span>
    </div>
  );
}
