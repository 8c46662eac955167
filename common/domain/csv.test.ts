import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './csv.ts';

describe('csv cells', () => {
  it('quotes every cell, doubles quotes, and defuses formulas', () => {
    expect(csvCell('plain')).toBe('"plain"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    for (const start of ['+', '-', '@', '\t', '\r']) expect(csvCell(`${start}1`)).toBe(`"'${start}1"`);
    // Numbers are amounts, negative ones included: they stay numbers.
    expect(csvCell(-50_000)).toBe('"-50000"');
    expect(csvCell(null)).toBe('""');
    expect(csvLine(['a', 1])).toBe('"a","1"\r\n');
  });
});
