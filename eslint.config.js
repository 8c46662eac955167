// ESLint flat config. Lint is fast on purpose: typescript-eslint's recommended rules without
// type information (tsc runs separately in `npm test`), React's hooks rules for web/, and the
// house's import boundaries (docs/architecture.md) as one small local rule. Formatting is Prettier's
// job: eslint-config-prettier comes last and turns off every rule that would fight it.
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const ROOT = path.dirname(fileURLToPath(import.meta.url));

/** package.json "imports": #server/*, #common/*, #web/*, #api-client/* map to these folders. */
const ALIASES = { '#server/': 'server/', '#common/': 'common/', '#web/': 'web/', '#api-client/': 'api-client/' };

/**
 * Where an import specifier points, as a repository-relative path with '/' separators
 * (e.g. 'server/modules/drops/drops.repository.ts'); { builtin: true } for a Node built-in;
 * null for a package from node_modules.
 */
function resolveSpecifier(specifier, importerPath) {
  for (const [alias, folder] of Object.entries(ALIASES)) {
    if (specifier.startsWith(alias)) return { target: folder + specifier.slice(alias.length) };
  }
  if (specifier.startsWith('.') || specifier.startsWith('/')) {
    const absolute = path.resolve(path.dirname(importerPath), specifier);
    return { target: path.relative(ROOT, absolute).split(path.sep).join('/') };
  }
  if (specifier.startsWith('node:') || isBuiltin(specifier)) return { builtin: true };
  return null;
}

const MODULE_FILE = /^server\/modules\/([^/]+)\//;
const REPOSITORY_FILE = /^server\/modules\/([^/]+)\/(?:.+\/)?[^/]+\.repository(?:\.[cm]?[jt]sx?)?$/;
/** Tests may reach into another module's SQL (e.g. query-plan tests read the reservations queries). */
const TEST_FILE = /(?:\.test\.[cm]?[jt]sx?$)|(?:^server\/test\/)/;

/** The boundary an import from `importer` (repository-relative) to `specifier` breaks, or null. */
function findViolation(importer, specifier, importerPath) {
  const resolved = resolveSpecifier(specifier, importerPath);
  if (!resolved) return null;
  const { target, builtin } = resolved;
  if (importer.startsWith('web/')) {
    if (target?.startsWith('server/')) return `web/ must not import from server/ ('${specifier}'); share code through common/.`;
  }
  if (importer.startsWith('common/')) {
    // Tests under common/ run only in Node (vitest), e.g. checking the draw against node:crypto.
    if (builtin && !TEST_FILE.test(importer)) return `common/ must not import the Node built-in '${specifier}': it runs in the browser too.`;
    if (target?.startsWith('server/') || target?.startsWith('web/')) return `common/ must not import from ${target.split('/')[0]}/ ('${specifier}').`;
  }
  if (importer.startsWith('api-client/')) {
    // The typed client is generated from docs/openapi.json alone: it stands for what the API promises, not for our code.
    if (target && !target.startsWith('api-client/'))
      return `api-client/ must not import from ${target.split('/')[0]}/ ('${specifier}'): it is generated from docs/openapi.json alone.`;
  }
  if (target?.startsWith('api-client/') && (importer.startsWith('common/') || (importer.startsWith('server/') && !TEST_FILE.test(importer)))) {
    return `${importer.split('/')[0]}/ must not import the generated client ('${specifier}'): the client is generated from what server/ and common/ declare.`;
  }
  const importerModule = MODULE_FILE.exec(importer)?.[1];
  const targetRepository = target ? REPOSITORY_FILE.exec(target) : null;
  if (importerModule && targetRepository && targetRepository[1] !== importerModule && !TEST_FILE.test(importer)) {
    return `server/modules/${importerModule} must not import the ${targetRepository[1]} module's repository ('${specifier}'); call its service instead.`;
  }
  return null;
}

/** The local rule: every import, re-export and literal dynamic import() is checked. */
const importBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Enforce the import boundaries of docs/architecture.md (web/server/common/api-client and module repositories).' },
    schema: [],
    messages: { boundary: '{{message}}' },
  },
  create(context) {
    const filename = context.filename;
    const importer = path.relative(ROOT, filename).split(path.sep).join('/');
    if (importer.startsWith('..')) return {};
    const check = (source) => {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const message = findViolation(importer, source.value, filename);
      if (message) context.report({ node: source, messageId: 'boundary', data: { message } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      TSImportType: (node) => check(node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument),
    };
  },
};

export default tseslint.config(
  {
    // Generated output and installed packages (node_modules is ignored by default).
    ignores: ['dist/', 'data/', 'coverage/', 'test-results/', 'package-lock.json', 'api-client/schema.ts'],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{js,mjs,cjs,ts,tsx}'],
    languageOptions: { globals: { ...globals.node } },
    plugins: { tablefair: { rules: { 'import-boundaries': importBoundaries } } },
    rules: {
      'tablefair/import-boundaries': 'error',
      // Deliberately unused: `_name` parameters and variables, and properties left out by `const { a, ...rest } = x`.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Off: every control-character regex here is a sanitiser that strips or rejects them on purpose (markup, return paths).
      'no-control-regex': 'off',
    },
  },
  {
    // The service worker runs in its own global scope (decision 212).
    files: ['web/public/sw.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    ...reactHooks.configs.flat.recommended,
  },
  prettier,
);
