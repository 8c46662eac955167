import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INDEX_PATH, parseRecord, readRecords, REGENERATE_COMMAND, renderIndex } from './decision-index.ts';

describe('the decision records index', () => {
  it(`is what \`${REGENERATE_COMMAND}\` writes from the records, and every record has a Status line`, () => {
    const records = readRecords();
    const committed = readFileSync(INDEX_PATH, 'utf8');
    expect(committed === renderIndex(records), `${INDEX_PATH} is stale: run \`${REGENERATE_COMMAND}\``).toBe(true);
  });

  it('reads the three kinds of Status, with the records they name', () => {
    const record = (status: string) => parseRecord('042-example-title.md', `# 042 — Example\n\nStatus: ${status}\n\n## Context\n`);
    expect(record('accepted')).toMatchObject({ number: '042', title: 'Example', status: 'accepted', supersededBy: [], supersededInPartBy: [] });
    expect(record('superseded by 184 and 185. The rest is history.')).toMatchObject({
      status: 'superseded by 184 and 185',
      supersededBy: ['184', '185'],
    });
    expect(record('accepted; superseded in part by 076 (events reach every instance)')).toMatchObject({
      status: 'accepted; superseded in part by 076',
      supersededInPartBy: ['076'],
    });
  });

  it('refuses a record without a readable Status, or whose title and file disagree', () => {
    expect(() => parseRecord('042-example.md', '# 042 — Example\n\n## Context\n')).toThrow(/042-example.md: no "Status: accepted"/);
    expect(() => parseRecord('042-example.md', '# 042 — Example\n\nStatus: proposed\n')).toThrow(/is not "Status: accepted"/);
    expect(() => parseRecord('042-example.md', '# 043 — Example\n\nStatus: accepted\n')).toThrow(/its title says 043/);
    expect(() => parseRecord('42-example.md', '# 042 — Example\n\nStatus: accepted\n')).toThrow(/NNN-kebab-title.md/);
  });
});
