import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The index of the decision records (docs/decisions/README.md), built from the records
 * themselves: each record's number and title from its first line, its standing from its
 * `Status:` line (docs/decisions/193-decision-index-generated.md). `npm run decisions` writes
 * it; scripts/decision-index.test.ts fails while the committed index differs or a record has no
 * Status line it can read.
 */

export const DECISIONS_DIR = 'docs/decisions';
export const INDEX_PATH = `${DECISIONS_DIR}/README.md`;
export const REGENERATE_COMMAND = 'npm run decisions';

export interface DecisionRecord {
  /** Three digits, as in the file name: '054'. */
  number: string;
  file: string;
  title: string;
  /** What the Status line says before its first full stop or parenthesis: 'accepted', 'superseded by 184 and 185'. */
  status: string;
  /** Later records that replace this one whole. */
  supersededBy: string[];
  /** Later records that replace part of it (the rest stands). */
  supersededInPartBy: string[];
}

const RECORD_FILE = /^(\d{3})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/;
const TITLE = /^# (\d{3}) — (\S.*)$/;
const NUMBERS = String.raw`\d{3}(?:(?:, | and )\d{3})*`;
/**
 * `Status: accepted`, `Status: superseded by 184 and 185`, or
 * `Status: accepted; superseded in part by 076`, optionally followed by `. ` or ` (` and words.
 */
const STATUS = new RegExp(String.raw`^Status: (accepted(?:; superseded in part by (${NUMBERS}))?|superseded by (${NUMBERS}))(?:$|\.(?: |$)| \()`);
/** Where a Status line may stand: within the record's first lines, under its title. */
const STATUS_WITHIN_LINES = 6;

const numbersIn = (text: string | undefined): string[] => (text ? (text.match(/\d{3}/g) ?? []) : []);

/** One record read from its text; throws a sentence naming the file when its title or Status cannot be read. */
export function parseRecord(file: string, text: string): DecisionRecord {
  const fileNumber = RECORD_FILE.exec(file)?.[1];
  if (!fileNumber) throw new Error(`${file}: a record's file is named NNN-kebab-title.md`);
  const lines = text.split('\n');
  const title = TITLE.exec(lines[0]);
  if (!title) throw new Error(`${file}: the first line must be "# ${fileNumber} — Title"`);
  if (title[1] !== fileNumber) throw new Error(`${file}: its title says ${title[1]}, its file name ${fileNumber}`);
  const statusLine = lines.slice(1, STATUS_WITHIN_LINES).find((line) => line.startsWith('Status:'));
  if (!statusLine) throw new Error(`${file}: no "Status: accepted" (or "Status: superseded by NNN") line under its title`);
  const status = STATUS.exec(statusLine);
  if (!status) {
    throw new Error(
      `${file}: "${statusLine.slice(0, 80)}" is not "Status: accepted", "Status: superseded by NNN" or "Status: accepted; superseded in part by NNN"`,
    );
  }
  return {
    number: fileNumber,
    file,
    title: title[2].trim(),
    status: status[1],
    supersededBy: numbersIn(status[3]),
    supersededInPartBy: numbersIn(status[2]),
  };
}

/** Every record in the folder, in number order (the index itself is not a record). */
export function readRecords(dir = DECISIONS_DIR): DecisionRecord[] {
  const files = readdirSync(dir)
    .filter((file) => file.endsWith('.md') && file !== path.basename(INDEX_PATH))
    .sort();
  const records = files.map((file) => parseRecord(file, readFileSync(path.join(dir, file), 'utf8')));
  checkReferences(records);
  return records;
}

/** A record may only be superseded by a later record that exists; two files may not share a number. */
function checkReferences(records: DecisionRecord[]): void {
  const byNumber = new Map<string, DecisionRecord>();
  for (const record of records) {
    const other = byNumber.get(record.number);
    if (other) throw new Error(`${record.file} and ${other.file} share the number ${record.number}`);
    byNumber.set(record.number, record);
  }
  for (const record of records) {
    for (const later of [...record.supersededBy, ...record.supersededInPartBy]) {
      if (!byNumber.has(later)) throw new Error(`${record.file}: its Status names decision ${later}, which does not exist`);
      if (later <= record.number) throw new Error(`${record.file}: its Status names decision ${later}, which is not a later record`);
    }
  }
}

const HEADER = `# Decision records

Why the code is as it is. Each record says what was needed (context), what was chosen (decision)
and what follows from it (consequences), and carries a \`Status:\` line under its title:

- \`Status: accepted\`: it stands.
- \`Status: accepted; superseded in part by NNN\`: it stands except where record NNN says otherwise.
- \`Status: superseded by NNN\`: record NNN replaced it; it is kept for the history.

To add a record, take the next free number, write \`docs/decisions/NNN-kebab-title.md\` with
\`# NNN — Title\` on its first line and \`Status: accepted\` under it, change the Status of any
record it replaces, then run \`${REGENERATE_COMMAND}\`: it rewrites the table below from the
records, and \`scripts/decision-index.test.ts\` fails while this file is stale or a record's
Status cannot be read (decision 193). A record cites other records and docs/ pages, never a tracker's
issue: say what was needed in the record itself.
`;

/** "superseded by [184](184-….md) and [185](185-….md)": the status with each record it names linked. */
function linkedStatus(record: DecisionRecord, byNumber: Map<string, DecisionRecord>): string {
  return record.status.replace(/\d{3}/g, (number) => `[${number}](${byNumber.get(number)?.file ?? ''})`);
}

/** The whole index, as `npm run decisions` writes it. */
export function renderIndex(records: DecisionRecord[]): string {
  const byNumber = new Map(records.map((record) => [record.number, record]));
  const rows = records.map((record) => `| [${record.number}](${record.file}) | ${record.title.replace(/\|/g, '\\|')} | ${linkedStatus(record, byNumber)} |`);
  const counts = {
    accepted: records.filter((record) => record.supersededBy.length === 0).length,
    superseded: records.filter((record) => record.supersededBy.length > 0).length,
  };
  return [
    HEADER,
    `<!-- Generated by \`${REGENERATE_COMMAND}\` from the records' titles and Status lines; edit the records, not this table. -->`,
    '',
    `${records.length} records: ${counts.accepted} standing, ${counts.superseded} superseded.`,
    '',
    '| record | decision | status |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
