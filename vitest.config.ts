import fs from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Test databases are copied from templates migrated once per run (apps/server/src/test/database-templates.ts).
// One module graph per worker, not per file (isolate: false): importing the server's and the web
// app's modules again for every file was a third of the suite's time (node project 378 → 260 s,
// web projects 118 → 88 s, each on two cores). Each file still makes its own app and database; the
// jsdom window is set up once per worker (vitest starts a worker's environment with the worker), so
// a worker's screen files share one window, each test's screen unmounted after it by Testing
// Library's cleanup (apps/web/src/test/setup.ts). Module state is per database, per window or
// idempotent, and the suite passes in shuffled file orders (--sequence.shuffle.files).
const shared = { testTimeout: 30_000, hookTimeout: 60_000, pool: 'forks' as const, isolate: false, globalSetup: ['apps/server/src/test/global-setup.ts'] };

const web = {
  test: { ...shared, include: ['apps/web/src/**/*.test.tsx'], environment: 'jsdom', setupFiles: ['apps/web/src/test/setup.ts'] },
  // The service worker's registration is a module the web build generates; jsdom has no service worker.
  resolve: { alias: { 'virtual:pwa-register/react': fileURLToPath(new URL('apps/web/src/test/pwa-register.ts', import.meta.url)) } },
};
/** The screens' tests that import fake-indexeddb, found by reading them: a new one is isolated without being listed. */
const webSources = fileURLToPath(new URL('apps/web/src/', import.meta.url));
const OWN_INDEXEDDB = fs
  .readdirSync(webSources, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.tsx') && fs.readFileSync(webSources + file, 'utf8').includes("'fake-indexeddb"))
  .map((file) => `apps/web/src/${file}`);

export default defineConfig({
  test: {
    // Vitest leaves a core free by default: on CI's two cores that is one worker. The suites wait on
    // the database and the network as much as they compute, so both cores are used.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { test: { ...shared, name: 'node', include: ['*.test.ts', 'scripts/*.test.ts', 'apps/*/src/**/*.test.ts', 'packages/*/src/**/*.test.ts'] } },
      // Screens as components: jsdom, the real API on PGlite (apps/web/src/test/).
      { ...web, test: { ...web.test, name: 'web', exclude: OWN_INDEXEDDB } },
      // These keep writes in an in-memory IndexedDB that would outlive the file in a shared module
      // graph (the offline queue holds its connection): each runs in a fresh one.
      { ...web, test: { ...web.test, name: 'web-indexeddb', include: OWN_INDEXEDDB, isolate: true } },
    ],
  },
});
