import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Decision 092: every feature's stylesheet anchors its rules on class blocks only it
 * defines (a feature prefix), so no page can look different depending on which
 * feature's CSS happened to load first; raw colours live only in tokens.css.
 */
const webRoot = fileURLToPath(new URL('..', import.meta.url));

/** The design system every page shares: primitives and layout may be restyled in context, never redefined. */
const isSharedFile = (file: string) => file.startsWith('styles/') || file === 'components/ui/ui.css' || file.startsWith('components/layout/');

function listCssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listCssFiles(path);
    return entry.name.endsWith('.css') ? [relative(webRoot, path).split(sep).join('/')] : [];
  });
}

const stripComments = (css: string) => css.replace(/\/\*[\s\S]*?\*\//g, '');

/** Every selector of every rule (at-rule preludes such as @media are skipped). */
function selectorsOf(css: string): string[] {
  const selectors: string[] = [];
  for (const match of stripComments(css).matchAll(/([^{};]+)\{/g)) {
    const prelude = match[1]!.trim();
    // At-rule preludes (@media …) and keyframe steps (from, 50%) are not selectors.
    if (!prelude || prelude.startsWith('@') || /^(from|to|[\d.]+%)(\s*,\s*(from|to|[\d.]+%))*$/.test(prelude)) continue;
    selectors.push(
      ...splitTopLevel(prelude, (char) => char === ',')
        .map((part) => part.trim())
        .filter(Boolean),
    );
  }
  return selectors;
}

/** Splits outside brackets and parentheses, where `isSeparator` says so. */
function splitTopLevel(text: string, isSeparator: (char: string) => boolean): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(' || char === '[') depth += 1;
    if (char === ')' || char === ']') depth -= 1;
    if (depth === 0 && isSeparator(char)) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}

const classesIn = (text: string) => [...text.matchAll(/\.(-?[A-Za-z_][\w-]*)/g)].map((match) => match[1]!);
/** `drop-card__title` and `drop-card--muted` both belong to the block `drop-card`. */
const blockOf = (className: string) => className.split(/__|--/)[0]!;
/** The first compound selector of a complex selector: the element every other part is scoped under. */
const firstCompound = (selector: string) => splitTopLevel(selector.trim(), (char) => /[\s>+~]/.test(char)).find((part) => part.trim()) ?? '';

const files = listCssFiles(webRoot);
const sharedFiles = files.filter(isSharedFile);
const featureFiles = files.filter((file) => !isSharedFile(file));
const read = (file: string) => readFileSync(join(webRoot, file), 'utf8');
/** Classes the design system defines (anchors); a class it only styles in context, like `.home-panel .res-list`, stays the feature's. */
const sharedClasses = new Set(sharedFiles.flatMap((file) => selectorsOf(read(file)).flatMap((selector) => classesIn(firstCompound(selector)))));
const sharedBlocks = new Set([...sharedClasses].map(blockOf));

describe('styles are scoped per feature (decision 092)', () => {
  it('finds the stylesheets', () => {
    expect(featureFiles.length).toBeGreaterThan(5);
    expect(sharedFiles).toContain('styles/tokens.css');
  });

  it('anchors every feature rule on a class block of its own, defined by no other stylesheet', () => {
    const owners = new Map<string, Set<string>>();
    const problems: string[] = [];
    for (const file of featureFiles) {
      for (const selector of selectorsOf(read(file))) {
        const anchors = classesIn(firstCompound(selector)).filter((name) => !sharedClasses.has(name));
        if (anchors.length === 0) problems.push(`${file}: "${selector}" is not scoped under a class of its feature`);
        for (const block of anchors.map(blockOf)) {
          if (sharedBlocks.has(block)) problems.push(`${file}: "${selector}" defines .${block}, a block of the shared design system`);
          owners.set(block, (owners.get(block) ?? new Set()).add(file));
        }
      }
    }
    for (const [block, owning] of owners) {
      if (owning.size > 1) problems.push(`.${block} is defined by ${[...owning].join(' and ')}`);
    }
    expect(problems).toEqual([]);
  });

  it('names every keyframes animation once', () => {
    const names = files.flatMap((file) => [...stripComments(read(file)).matchAll(/@keyframes\s+([\w-]+)/g)].map((match) => `${match[1]} (${file})`));
    const seen = new Map<string, number>();
    for (const name of names.map((entry) => entry.split(' ')[0]!)) seen.set(name, (seen.get(name) ?? 0) + 1);
    expect(names.filter((entry) => seen.get(entry.split(' ')[0]!)! > 1)).toEqual([]);
  });

  it('keeps raw colours (hex, rgb, hsl) in tokens.css only', () => {
    const problems: string[] = [];
    for (const file of files.filter((file) => file !== 'styles/tokens.css')) {
      for (const body of stripComments(read(file)).matchAll(/\{([^{}]*)\}/g)) {
        for (const literal of body[1]!.matchAll(/#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\(/g)) {
          problems.push(`${file}: ${literal[0]} in "${body[1]!.trim().slice(0, 80)}"`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
