import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4173);
// Two workers, each with its own server and embedded database (e2e/test.ts picks the worker's):
// journeys run side by side on two cores without sharing data.
const workers = Number(process.env.E2E_WORKERS ?? 2);

export default defineConfig({
  testDir: './tests',
  outputDir: './artifacts/results',
  fullyParallel: false,
  workers,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['html', { outputFolder: './artifacts/report', open: 'never' }]],
  // A busy machine (CI's may be) answers slowly: waits are conditions, with room to be met.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://localhost:${port}`,
    screenshot: 'only-on-failure',
    // Recording a trace costs every journey 25–60 % of its time on a 2-core machine (it snapshots the
    // page after each step), so only a retried journey records one: CI retries once.
    trace: 'on-first-retry',
    // Each journey's browser context is new, so the service worker would install again in every one
    // and fetch the whole precache (124 files) beside the journey. Only the offline journeys use it.
    serviceWorkers: 'block',
    launchOptions: {
      // The system's Chromium: never a downloaded browser.
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } }, grepInvert: /@phone/ },
    { name: 'phone', use: { ...devices['Pixel 7'], viewport: { width: 390, height: 844 } }, grep: /@phone/ },
  ],
  webServer: Array.from({ length: workers }, (_, index) => ({
    command: 'bash start-server.sh',
    env: { E2E_PORT: String(port + index) },
    url: `http://localhost:${port + index}/api/health/`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe' as const,
    // SIGTERM, not SIGKILL: the server closes its database and start-server.sh removes the data directory it made.
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 10_000 },
  })),
});
