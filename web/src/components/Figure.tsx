// A number the end-to-end test compares with the API: `data-testid` names
// it (docs/dashboard.md) and `data-value` carries the API's exact value.
export function Figure({ testId, value, text }: { testId: string; value: string | bigint; text: string }) {
  return (
    <span data-testid={testId} data-value={String(value)}>
      {text}
    </span>
  );
}
