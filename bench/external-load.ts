/**
 * The load generator of the hot-path runs, in its own process (decision 270): wrk when installed
 * (`apt-get install wrk`), else autocannon in a child process. A generator running inside the
 * bench process with a JavaScript function per request tops out near the bare baseline's rate and
 * squeezes every ratio towards 1; wrk, one C thread on the other core, outruns the baseline, and
 * the bench checks that it does (bench/hot-path.ts).
 *
 * Every run sends requests prepared before it starts, in turn, from a file of paths, so the
 * generator does the same work per request for the baseline and the app.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadResult } from './lib.ts';

export interface ExternalRun {
  baseUrl: string;
  /** The paths to ask for, in turn (one path for a constant baseline). */
  paths: readonly string[];
  headers: Record<string, string>;
  connections: number;
  seconds: number;
  /** The server's process: its CPU time over the run is reported as `serverBusy`. */
  serverPid?: number;
}

export interface ExternalResult extends LoadResult {
  /** Share of one core the server's process used during the run (1 = a whole core). */
  serverBusy: number;
  generator: 'wrk' | 'autocannon';
}

const hasWrk = spawnSync('wrk', ['--version'], { encoding: 'utf8' }).error === undefined;
export const GENERATOR = hasWrk ? 'wrk (one thread, its own process)' : 'autocannon (its own process; install wrk for a faster generator)';

const workDir = mkdtempSync(join(tmpdir(), 'tablefair-load-'));
let files = 0;

/** wrk's script: read the paths once, format every request once, then hand them out in turn. */
function wrkScript(pathsFile: string, headers: Record<string, string>): string {
  const headerLines = Object.entries(headers)
    .map(([name, value]) => `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`)
    .join('\n');
  return `${headerLines}
local requests = {}
local turn = 0
-- In init, after wrk has set the Host header: a request formatted before it has none (a 400).
init = function(args)
  for path in io.lines(${JSON.stringify(pathsFile)}) do requests[#requests + 1] = wrk.format("GET", path) end
end
request = function()
  turn = turn + 1
  if turn > #requests then turn = 1 end
  return requests[turn]
end
`;
}

/** A wrk duration ("812.00us", "3.21ms", "1.02s") in milliseconds. */
function wrkMs(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return { us: value / 1000, ms: value, s: value * 1000, m: value * 60_000 }[match[2] as 'us' | 'ms' | 's' | 'm'];
}

/** CPU time (user + system) of a process so far, in seconds (Linux /proc; 100 ticks a second). */
export function cpuSeconds(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`${command} exited ${code}:\n${output}`))));
  });
}

function parseWrk(output: string, seconds: number): LoadResult {
  const figure = (pattern: RegExp) => pattern.exec(output)?.[1];
  const requests = Number(figure(/(\d+) requests in/) ?? 0);
  const bytes = figure(/requests in [\d.]+\w+, ([\d.]+)(\w+) read/);
  const unit = /requests in [\d.]+\w+, [\d.]+(\w+) read/.exec(output)?.[1] ?? 'B';
  const scale: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 };
  const nonOk = Number(figure(/Non-2xx or 3xx responses: (\d+)/) ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const errors = socket ? Number(socket[1]) + Number(socket[2]) + Number(socket[3]) : 0;
  const timeouts = socket ? Number(socket[4]) : 0;
  const ok = requests - nonOk;
  return {
    finishedAt: performance.now(),
    requests,
    rps: Number(figure(/Requests\/sec:\s+([\d.]+)/) ?? requests / seconds),
    p50: wrkMs(figure(/\n\s+50%\s+(\S+)/) ?? ''),
    p99: wrkMs(figure(/\n\s+99%\s+(\S+)/) ?? ''),
    max: wrkMs(figure(/Latency\s+\S+\s+\S+\s+(\S+)/) ?? ''),
    non2xx: nonOk,
    errors: errors + timeouts,
    timeouts,
    bytesPerResponse: requests ? (Number(bytes ?? 0) * (scale[unit] ?? 1)) / requests : 0,
    // wrk counts answers other than 2xx/3xx, not each status: the runs expect 200 throughout.
    statuses: nonOk ? { 200: ok, 500: nonOk } : { 200: ok },
  };
}

/** One timed run from a separate process, after a warm-up run of `warmupSeconds` (not counted). */
export async function externalLoad(options: ExternalRun, warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 1)): Promise<ExternalResult> {
  // Numbered once per run: runs spread over instances go at the same time and must not share a file.
  const number = ++files;
  const pathsFile = join(workDir, `paths-${number}.txt`);
  writeFileSync(pathsFile, `${options.paths.join('\n')}\n`);
  const once = async (seconds: number): Promise<LoadResult> => {
    if (hasWrk) {
      const script = join(workDir, `script-${number}.lua`);
      writeFileSync(script, wrkScript(pathsFile, options.headers));
      const args = ['-t1', `-c${options.connections}`, `-d${seconds}s`, '--timeout', '30s', '--latency', '-s', script, options.baseUrl];
      return parseWrk(await run('wrk', args), seconds);
    }
    const worker = join(import.meta.dirname, 'autocannon-process.ts');
    const args = ['--import', 'tsx', worker, options.baseUrl, pathsFile, String(options.connections), String(seconds), JSON.stringify(options.headers)];
    return JSON.parse((await run(process.execPath, args)).trim().split('\n').pop()!) as LoadResult;
  };
  if (warmupSeconds > 0) await once(warmupSeconds);
  const cpuBefore = cpuSeconds(options.serverPid);
  const started = performance.now();
  const result = await once(options.seconds);
  const elapsed = (performance.now() - started) / 1000;
  const serverBusy = options.serverPid ? (cpuSeconds(options.serverPid) - cpuBefore) / elapsed : Number.NaN;
  return { ...result, serverBusy, generator: hasWrk ? 'wrk' : 'autocannon' };
}

export interface SplitResult extends ExternalResult {
  /** Each instance's own run, in the order given. */
  perServer: ExternalResult[];
}

/**
 * One load spread over several instances (decision 270's generator, one wrk per instance, all at
 * the same time): the connections are shared out evenly and instance k asks for every n-th
 * prepared path from the k-th. The rate is the sum; p50 the mean and p99 the highest of the
 * instances' own (wrk's histograms cannot be merged from its text output).
 */
export async function externalLoadSplit(
  options: Omit<ExternalRun, 'baseUrl' | 'serverPid'> & { servers: readonly { baseUrl: string; pid?: number }[] },
): Promise<SplitResult> {
  const n = options.servers.length;
  const perServer = await Promise.all(
    options.servers.map((server, k) =>
      externalLoad({
        baseUrl: server.baseUrl,
        serverPid: server.pid,
        headers: options.headers,
        seconds: options.seconds,
        connections: Math.round(options.connections / n),
        paths: options.paths.length > n ? options.paths.filter((_, i) => i % n === k) : options.paths,
      }),
    ),
  );
  const sum = (pick: (r: ExternalResult) => number) => perServer.reduce((total, r) => total + pick(r), 0);
  const requests = sum((r) => r.requests);
  return {
    finishedAt: Math.max(...perServer.map((r) => r.finishedAt)),
    requests,
    rps: sum((r) => r.rps),
    p50: sum((r) => r.p50) / n,
    p99: Math.max(...perServer.map((r) => r.p99)),
    max: Math.max(...perServer.map((r) => r.max)),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    bytesPerResponse: requests ? sum((r) => r.bytesPerResponse * r.requests) / requests : 0,
    statuses: perServer.reduce<Record<number, number>>((all, r) => {
      for (const [status, count] of Object.entries(r.statuses)) all[Number(status)] = (all[Number(status)] ?? 0) + count;
      return all;
    }, {}),
    serverBusy: sum((r) => r.serverBusy),
    generator: perServer[0].generator,
    perServer,
  };
}
