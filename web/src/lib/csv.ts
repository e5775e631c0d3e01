/** RFC 4180 CSV, with a guard against spreadsheet formula injection. */

export function csvCell(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (Array.isArray(value)) text = value.map((v) => String(v)).join(', ');
  else if (typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  // A cell that starts like a formula is opened as one by spreadsheets: prefix it so it stays text.
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  if (/[",\r\n]/.test(text)) return `"${text.replace(/"/g, '""')}"`;
  return text;
}

export function toCsv(headings: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const lines = [headings.map(csvCell).join(',')];
  for (const row of rows) lines.push(row.map(csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
