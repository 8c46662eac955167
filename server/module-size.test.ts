import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The house limits (docs/architecture.md, decision 190): no file in server/modules over 450 lines
 * (tests included), and no `create…` factory over 250 lines, so a use case stays one file a
 * newcomer can read. Read from the source as it is; nothing is built or run.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MODULES = join(ROOT, 'server', 'modules');
const MAX_FILE_LINES = 450;
const MAX_FACTORY_LINES = 250;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|sql)$/.test(entry.name) ? [path] : [];
  });
}

/** Lines of a text as an editor counts them (a final newline ends the last line, it does not start another). */
function lineCount(text: string): number {
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}

/**
 * Each top-level `create…` function (`function createX(`, `const createX = (`) with its length in
 * lines, from its declaration to the first line after it that closes it at column 0 (Prettier puts
 * a top-level function's closing brace there and nothing else).
 */
function factoryLengths(text: string): { name: string; lines: number }[] {
  const lines = text.split('\n');
  const factories: { name: string; lines: number }[] = [];
  lines.forEach((line, start) => {
    const name = /^(?:export\s+)?(?:async\s+)?(?:function\s+|const\s+)(create[A-Z]\w*)\b/.exec(line)?.[1];
    if (!name) return;
    const end = lines.findIndex((candidate, index) => index >= start && /^}/.test(candidate));
    factories.push({ name, lines: (end === -1 ? lines.length - 1 : end) - start + 1 });
  });
  return factories;
}

describe('the size limits of server/modules', () => {
  const files = sourceFiles(MODULES).map((path) => ({ path: relative(ROOT, path), text: readFileSync(path, 'utf8') }));

  it('reads every module file', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((file) => file.path.endsWith('reservations.service.ts'))).toBe(true);
  });

  it(`has no file over ${MAX_FILE_LINES} lines`, () => {
    const over = files.filter((file) => lineCount(file.text) > MAX_FILE_LINES).map((file) => `${file.path}: ${lineCount(file.text)} lines`);
    expect(over).toEqual([]);
  });

  it(`has no create… factory over ${MAX_FACTORY_LINES} lines`, () => {
    const over = files.flatMap((file) =>
      factoryLengths(file.text)
        .filter((factory) => factory.lines > MAX_FACTORY_LINES)
        .map((factory) => `${file.path}: ${factory.name} is ${factory.lines} lines`),
    );
    expect(over).toEqual([]);
  });

  it('measures a factory from its declaration to its closing brace, and a file by its lines', () => {
    const factory = ['export function createThing(deps: Deps) {', '  return {', '    run() {}', '  };', '}', '', 'const createOther = () => {', '};', ''].join(
      '\n',
    );
    expect(factoryLengths(factory)).toEqual([
      { name: 'createThing', lines: 5 },
      { name: 'createOther', lines: 2 },
    ]);
    expect(lineCount(factory)).toBe(8);
    expect(lineCount(`${'x\n'.repeat(MAX_FILE_LINES + 1)}`)).toBe(MAX_FILE_LINES + 1);
  });
});
