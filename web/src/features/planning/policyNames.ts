// The names of the policy's flavors and teams, for the Planning page's
// pickers. The API answers the policy as the YAML document that was applied
// (GET /v1/policy), and the dashboard carries no YAML library for one list:
// this reads the block-style lists policies are written in
// (`flavors:` then `  - name: X` items). A document in another style yields
// fewer names; the pickers then also offer the recommendations' flavors and
// teams (pickerOptions.ts), and a name in the URL is always offered.

const topLevelKey = /^([A-Za-z_][\w-]*)\s*:/;
const listItemName = /^(\s*)-\s+name\s*:\s*(.+?)\s*$/;
const unquote = (text: string) => text.replace(/\s+#.*$/, '').replace(/^(['"])(.*)\1$/, '$2');

// The `name` of each item of the top-level list `section`, in order.
export function policyListNames(document: string, section: 'flavors' | 'teams'): string[] {
  const names: string[] = [];
  let inside = false;
  let itemIndent: number | null = null;
  for (const line of document.split('\n')) {
    const key = topLevelKey.exec(line);
    if (key) {
      inside = key[1] === section;
      itemIndent = null;
      continue;
    }
    if (!inside) continue;
    const item = listItemName.exec(line);
    if (!item) continue;
    const indent = (item[1] ?? '').length;
    itemIndent ??= indent;
    // Items of nested lists (deeper) are not the section's own.
    if (indent === itemIndent) {
      const name = unquote(item[2] ?? '');
      if (name !== '') names.push(name);
    }
  }
  return names;
}
