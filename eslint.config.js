import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import eslintComments from '@eslint-community/eslint-plugin-eslint-comments';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import i18next from 'eslint-plugin-i18next';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = path.dirname(fileURLToPath(import.meta.url));

/** Tests and their helpers: they may reach across the apps to start the real API. */
const TEST_FILES = ['apps/*/src/**/*.test.{ts,tsx}', 'packages/*/src/**/*.test.ts', 'apps/*/src/test/**'];

/** Imports no path rule sees: `import.meta.glob` patterns. */
const RESTRICTED_SYNTAX = [
  {
    selector: "MemberExpression[object.type='MetaProperty'][property.name=/^glob/]",
    message: 'import.meta.glob reads files past the boundary rules: import what you need by name.',
  },
];

/**
 * One clock (decision record 063): a date or time a person reads is written in their zone by
 * packages/shared/src/time-zones.ts (the web through lib/format.ts), never by the runtime's own zone.
 */
const CLOCK_SYNTAX = [
  {
    selector: "MemberExpression[object.name='Intl'][property.name='DateTimeFormat']",
    message: "Format dates and times with packages/shared's time-zones.ts (the web: lib/format.ts), on the reader's clock.",
  },
  {
    selector: 'CallExpression[callee.property.name=/^(toLocaleDateString|toLocaleTimeString|getHours|getMinutes|getDate|getDay|getMonth|getFullYear|getTimezoneOffset)$/]',
    message: "The runtime's zone is nobody's clock: use packages/shared's time-zones.ts (the web: lib/format.ts).",
  },
];

/** A date is typed in DateField, in the page's language: the native input writes the browser's (decision record 097). */
const DATE_INPUT_SYNTAX = [
  {
    selector: "JSXAttribute[name.name='type'][value.value='date']",
    message: "Type dates in components/ui/form-field.tsx's DateField: <input type=\"date\"> shows the browser's language's pattern, not the page's (decision record 097).",
  },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'apps/server/drizzle/**', 'e2e/artifacts/**', 'test-results/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  // Every word a person reads comes from the locale files (CONTRIBUTING.md rule 18, decision record 033):
  // text in JSX and the attributes a person reads or hears may not be a literal.
  {
    files: ['apps/web/src/**/*.tsx'],
    ignores: ['apps/web/src/**/*.test.tsx', 'apps/web/src/test/**'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          message: 'User-visible text must come from the locale files (t(...))',
          'jsx-attributes': { include: ['aria-label', 'aria-description', 'aria-roledescription', 'aria-valuetext', 'aria-placeholder', 'title', 'alt', 'placeholder', 'label', 'trigger', 'description', 'headerStart', 'message', 'heading', 'emptyText', 'caption'] },
          // Not words: punctuation and symbols (separators, arrows, the ellipsis), numbers, and the product's name.
          words: { exclude: [/^[\s\p{P}\p{S}\d]+$/u, /^[A-Z_-]+$/, /^SiteBoard$/] },
          // Strings handed to these are names and keys, never text: form fields, URL parameters, lookups.
          callees: { exclude: ['i18n(ext)?', 't', 'require', 'addEventListener', 'removeEventListener', 'includes', 'indexOf', 'endsWith', 'startsWith', 'register', 'get', 'has', 'set', 'delete', 'watch', 'setValue', 'getValues', 'setError', 'clearErrors', 'resetField', 'trigger', 'join', 'split', 'replace', 'navigate', 'matchMedia', 'querySelector', 'querySelectorAll', 'getAttribute', 'Icon', 'buttonClasses', 'formatDate', 'formatDateTime'] },
          'object-properties': { exclude: ['key', 'value', 'to', 'variant', 'size', 'icon', 'type', 'role', 'id', 'sectionId', 'colour', 'tone'] },
        },
      ],
    },
  },
  // Boundaries that hold (CONTRIBUTING.md, decision records 008 and 043): import paths are
  // resolved, so no spelling of a path (`../../../features/x`) slips past. Tests may reach test
  // helpers across the apps (the web's screen tests run the real API); nothing else may.
  {
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json'], noWarnOnMultipleProjects: true })] },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaryZones({ tests: false }) }],
      'no-restricted-syntax': ['error', ...RESTRICTED_SYNTAX],
    },
  },
  {
    files: ['apps/*/src/**/*.{ts,tsx}'],
    ignores: [...TEST_FILES, 'apps/*/src/**/*.fixture.ts'],
    rules: { 'no-restricted-syntax': ['error', ...RESTRICTED_SYNTAX, ...CLOCK_SYNTAX] },
  },
  {
    files: ['apps/web/src/**/*.tsx'],
    ignores: [...TEST_FILES, 'apps/web/src/components/ui/form-field.tsx'],
    rules: { 'no-restricted-syntax': ['error', ...RESTRICTED_SYNTAX, ...CLOCK_SYNTAX, ...DATE_INPUT_SYNTAX] },
  },
  {
    files: TEST_FILES,
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaryZones({ tests: true }) }] },
  },
  // The one place that reads files by pattern: the locale catalogs, which are data, not code.
  { files: ['apps/web/src/lib/i18n.ts'], rules: { 'no-restricted-syntax': 'off' } },
  // A file directly in a features/ folder belongs to no feature, so no feature's boundary holds it.
  {
    files: ['apps/*/src/features/*.{ts,tsx}'],
    rules: { 'no-restricted-syntax': ['error', { selector: 'Program', message: 'A file directly in features/ belongs to no feature: put it in a feature folder, in lib/ or in platform/.' }] },
  },
  // A boundary switched off in a comment is no boundary: these rules cannot be disabled inline.
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { '@eslint-community/eslint-comments': eslintComments },
    rules: {
      '@eslint-community/eslint-comments/no-restricted-disable': ['error', 'import-x/no-restricted-paths', 'no-restricted-syntax', '@eslint-community/eslint-comments/*'],
      '@eslint-community/eslint-comments/no-unlimited-disable': 'error',
    },
  },
);

/** The zones no-restricted-paths keeps apart; exported for the test that proves they hold. */
export function boundaryZones({ tests }) {
  const features = (app) => fs.readdirSync(path.join(root, 'apps', app, 'src/features'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  const web = 'apps/web/src';
  const server = 'apps/server/src';
  const platform = `${server}/platform`;
  const outsidePlatform = [`${server}/features`, `${server}/lib`, `${server}/scripts`, `${server}/test`, `${server}/app.ts`, `${server}/server.ts`, `${server}/config.ts`, `${server}/*.test.ts`];
  return [
    // The web flows shared → features → app: nothing imports app/, components and lib import no feature, and no feature another.
    { target: [`${web}/features`, `${web}/components`, `${web}/lib`], from: `${web}/app`, message: 'Only app/ composes; nothing imports it.' },
    { target: [`${web}/components`, `${web}/lib`], from: `${web}/features`, message: 'Shared code must not import a feature.' },
    ...features('web').map((feature) => ({
      target: `${web}/features/${feature}`,
      from: `${web}/features`,
      except: [`./${feature}`],
      message: 'A feature must not import another feature: move what both need to lib/ or components/, or compose them in app/.',
    })),
    // The web runs in the browser: it never imports the server (its screen tests start the real API).
    ...(tests ? [] : [{ target: web, from: 'apps/server', message: 'The web app must not import server code.' }]),
    // The shared package serves both apps and imports neither.
    { target: 'packages', from: 'apps', message: 'packages/shared must not import either app.' },
    // The server: a feature may read another's data and pure rules (its queries and rules files, and
    // the auth feature's tokens and throttle that the auth plugin hands to every scope), never its
    // routes, services or plugin.
    ...features('server').map((feature) => ({
      target: `${server}/features/${feature}`,
      from: `${root}/${server}/features/*/**`,
      except: [`${root}/${server}/features/${feature}/**`, `${root}/${server}/features/*/*.{queries,rules}.ts`, `${root}/${server}/features/auth/{auth.tokens,auth.throttle}.ts`],
      message: "A feature may use another feature's queries and rules only, never its routes or services.",
    })),
    // What other features may read must not pass a service or route on: queries and rules import none.
    {
      target: `${root}/${server}/features/*/*.{queries,rules}.ts`,
      from: `${root}/${server}/features/*/*.{service,routes,plugin,live,csv,pdf}.ts`,
      message: 'A queries or rules file must not import (or re-export) a service, route or plugin.',
    },
    // The platform stands below the product: it imports no feature, no product helper, and not the app.
    {
      target: platform,
      // (Its tests may build the whole app, as every API test does.)
      from: [`${server}/features`, `${server}/lib`, `${server}/scripts`, `${server}/server.ts`, `${server}/config.ts`, ...(tests ? [] : [`${server}/test`, `${server}/app.ts`])],
      message: 'The platform must not import the product (features, lib, app): pass what it needs in.',
    },
    // Everything else reaches the platform through its one public face.
    { target: outsidePlatform, from: platform, except: ['./index.ts'], message: "Import the platform from its public face (platform/index.ts), not a file inside it." },
    // lib/ holds the product's helpers: it imports no feature.
    { target: `${server}/lib`, from: `${server}/features`, message: 'lib/ must not import a feature.' },
    // The tables import only each other.
    { target: `${server}/schema`, from: [platform, `${server}/features`, `${server}/lib`], message: 'A table must not import code.' },
  ];
}
