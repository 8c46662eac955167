/**
 * The fallback load generator when wrk is not installed (bench/external-load.ts): autocannon in a
 * process of its own, handing out prepared paths in turn. Prints its LoadResult as one JSON line.
 *   node --import tsx bench/autocannon-process.ts <baseUrl> <pathsFile> <connections> <seconds> <headersJson>
 */
import { readFileSync } from 'node:fs';
import { load } from './lib.ts';

const [baseUrl, pathsFile, connections, seconds, headers] = process.argv.slice(2);
const paths = readFileSync(pathsFile, 'utf8').split('\n').filter(Boolean);
let turn = 0;
const result = await load({
  url: baseUrl,
  connections: Number(connections),
  durationSeconds: Number(seconds),
  headers: JSON.parse(headers) as Record<string, string>,
  next: () => ({ path: paths[turn++ % paths.length] }),
});
console.log(JSON.stringify(result));
process.exit(0);
