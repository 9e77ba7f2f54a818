// Reading the files the dashboard downloads: RFC 4180 CSV (the chargeback
// CSV and FOCUS exports) and the exact decimals in them, so a file's rows
// can be held to the API's integers without a float in between.

export interface CsvTable {
  header: string[];
  // One object per record, by header name.
  rows: Array<Record<string, string>>;
}

// RFC 4180: fields separated by commas, records by CRLF (a bare LF is taken
// too), a quoted field may hold commas, CR, LF and doubled quotes. A record
// whose field count differs from the header's is an error naming it.
export function parseCsv(text: string): CsvTable {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  let i = 0;
  const endField = () => {
    record.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    records.push(record);
    record = [];
  };
  while (i < text.length) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
      i += 1;
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === ',') endField();
    else if (c === '\r' && text[i + 1] === '\n') {
      endRecord();
      i += 1;
    } else if (c === '\n') endRecord();
    else field += c;
    i += 1;
  }
  if (quoted) throw new Error('CSV: a quoted field is not closed');
  if (field !== '' || record.length > 0) endRecord();
  const [header, ...body] = records;
  if (header === undefined) throw new Error('CSV: no header row');
  const rows = body.map((fields, index) => {
    if (fields.length !== header.length) {
      throw new Error(`CSV record ${index + 2}: ${fields.length} fields, the header has ${header.length}`);
    }
    return Object.fromEntries(header.map((name, column) => [name, fields[column] as string]));
  });
  return { header, rows };
}

// An exact decimal amount ("14.00", "1.166667", "0.00012") as integer
// micro-units; more than six decimals, or anything but digits, is an error.
export function microUnits(decimal: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d{1,6}))?$/.exec(decimal);
  if (match === null) throw new Error(`not an exact amount with at most 6 decimals: ${JSON.stringify(decimal)}`);
  const [, sign, whole, fraction = ''] = match;
  const micro = BigInt(whole as string) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
  return sign === '-' ? -micro : micro;
}
