import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Test databases are copied from templates migrated once per run (apps/server/src/test/database-templates.ts).
const shared = { testTimeout: 30_000, hookTimeout: 60_000, pool: 'forks' as const, globalSetup: ['apps/server/src/test/global-setup.ts'] };

export default defineConfig({
  test: {
    // Vitest leaves a core free by default: on CI's two cores that is one worker. The suites wait on
    // the database and the network as much as they compute, so both cores are used.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      // One module graph per worker, not per file: importing the server's modules again for each of
      // 71 files was a third of this project's time (378 → 260 s, the whole project on two cores).
      // Each file still makes its own app and database; module state is per database or idempotent.
      { test: { ...shared, isolate: false, name: 'node', include: ['*.test.ts', 'apps/*/src/**/*.test.ts', 'packages/*/src/**/*.test.ts'] } },
      // Screens as components: jsdom, the real API on PGlite (apps/web/src/test/).
      { test: { ...shared, name: 'web', include: ['apps/web/src/**/*.test.tsx'], environment: 'jsdom', setupFiles: ['apps/web/src/test/setup.ts'] },
        // The service worker's registration is a module the web build generates; jsdom has no service worker.
        resolve: { alias: { 'virtual:pwa-register/react': fileURLToPath(new URL('apps/web/src/test/pwa-register.ts', import.meta.url)) } },
      },
    ],
  },
});
