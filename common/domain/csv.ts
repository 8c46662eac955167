/**
 * CSV cells a spreadsheet opens safely: every cell quoted, quotes doubled, and a cell that a
 * spreadsheet would read as a formula (starting with =, +, -, @, a tab or a carriage return)
 * prefixed with an apostrophe, so exported text can never run as a formula.
 */
export function csvCell(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  const safe = typeof value === 'string' && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replaceAll('"', '""')}"`;
}

export function csvLine(values: readonly (string | number | null)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
