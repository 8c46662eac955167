// `npm run decisions`: rewrites docs/decisions/README.md, the index of the decision records, from
// the records' titles and Status lines (decision 193). Run it after adding a record or changing a
// Status; scripts/decision-index.test.ts fails while the committed index is stale.
import { writeFileSync } from 'node:fs';
import { INDEX_PATH, readRecords, renderIndex } from './decision-index.ts';

const records = readRecords();
writeFileSync(INDEX_PATH, renderIndex(records));
console.log(`Wrote ${INDEX_PATH} (${records.length} records)`);
