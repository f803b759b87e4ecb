import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import i18next from 'eslint-plugin-i18next';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = path.dirname(fileURLToPath(import.meta.url));

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
  // Every word a person reads comes from the locale files (STYLE.md rule 16, decision record 033):
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
  // Boundaries that hold (STYLE.md rule 15, decision record 008): import paths are resolved, so
  // no spelling of a path (`../../../features/x`) slips past.
  {
    files: ['apps/*/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json'], noWarnOnMultipleProjects: true })] },
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaryZones() }] },
  },
);

/** The zones no-restricted-paths keeps apart; exported for the test that proves they hold. */
export function boundaryZones() {
  const features = (app) => fs.readdirSync(path.join(root, 'apps', app, 'src/features'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  const web = 'apps/web/src';
  const server = 'apps/server/src';
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
    // The server: a feature may read another's data and pure rules (its queries and rules files, and
    // the auth feature's token, throttle and identity services that the auth plugin hands to every
    // scope, and that a service ending someone's access must settle),
    // never its routes or services; nothing below features/ imports a feature's routes.
    ...features('server').map((feature) => ({
      target: `${server}/features/${feature}`,
      from: `${root}/${server}/features/*/**`,
      except: [`${root}/${server}/features/${feature}/**`, `${root}/${server}/features/*/*.{queries,rules}.ts`, `${root}/${server}/features/auth/{auth.tokens,auth.throttle}.ts`],
      message: "A feature may use another feature's queries and rules only, never its routes or services.",
    })),
  ];
}
