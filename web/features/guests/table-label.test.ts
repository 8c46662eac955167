import { describe, expect, it } from 'vitest';
import { tableLabel } from './table-label.ts';

describe('the brief’s table column', () => {
  it('names the assigned table, else a dash', () => {
    expect(tableLabel({ table: 'T4 · window' })).toBe('T4 · window');
    expect(tableLabel({ table: null })).toBe('—');
    expect(tableLabel({ table: '  ' })).toBe('—');
  });
});
