/**
 * Bundle budgets: the landing page's JavaScript under 150 KB gzipped (phones on a job site's
 * connection see it first). Builds the app afresh, then walks Vite's manifest from the entry
 * through the route's chunk and its static imports. Each role area's first load stays under
 * 250 KB (the admin's 175): what only some screens need (charts, editing) loads when it is first
 * shown, and none of it is zod or the zone list.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_CHUNKS } from '../route-preload';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const KB = 1024;
const BUDGETS = [
  // The entry formats times through packages/shared's clock.ts, which carries the zone aliases but
  // neither the zone list nor zod (decision record 095): back to 150 KB after 063 raised it to 165.
  { name: 'landing page', route: 'src/app/routes/landing.tsx', limit: 150 * KB },
  // The admin dashboard's tables load their edit rows, the set-password dialog and the report's form check
  // on first use; its constants come from zod-free modules: no zod, no zone list (095; 193.2 KB, was 232.7).
  // The Delete confirmations' dialog loads on first use and the appraisal report after the first paint
  // (098; 162.8 KB).
  { name: 'admin area', route: 'src/app/routes/admin/area.tsx', limit: 175 * KB },
  { name: 'manager area', route: 'src/app/routes/manager/area.tsx', limit: 250 * KB },
  { name: 'team-member area', route: 'src/app/routes/team-member/area.tsx', limit: 250 * KB },
];
const SIGNED_IN_AREAS = ['src/app/routes/admin/area.tsx', 'src/app/routes/manager/area.tsx', 'src/app/routes/team-member/area.tsx'];

let outDir: string;
let manifest: Manifest;

/** Every JS file the browser must fetch before the chunk can run: it and its static imports. */
function firstLoadFiles(key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) firstLoadFiles(imported, seen);
  return seen;
}

/** The manifest key of index.html's entry chunk. */
const entryKey = () => Object.keys(manifest).find((key) => manifest[key]!.isEntry)!;

/** The text of the route-preload script index.html loads (route-preload.ts), or undefined without one. */
function routePreloadScript(): string | undefined {
  const html = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
  const script = /<script async src="\/(assets\/route-preload-[\w-]+\.js)"><\/script>/.exec(html)?.[1];
  return script && fs.readFileSync(path.join(outDir, script), 'utf8');
}

const gzippedSize = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(outDir, file))).length;

describe('bundle budgets', () => {
  beforeAll(async () => {
    outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-budget-'));
    // Vitest runs with NODE_ENV=test, which would make Vite bundle React's development build.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({ root: webRoot, mode: 'production', logLevel: 'silent', build: { outDir, manifest: true, emptyOutDir: true } });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
    manifest = JSON.parse(fs.readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8'));
  }, 120_000);
  afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

  for (const budget of BUDGETS) {
    it(`keeps the ${budget.name}'s first load under ${budget.limit / KB} KB gzipped`, () => {
      const entry = entryKey();
      expect(manifest[budget.route], `${budget.route} must be its own chunk`).toBeDefined();
      // What the route's first render loads lazily is preloaded beside it (route-preload.ts): part of its first load.
      const firstRender = ROUTE_CHUNKS.find((route) => route.module === budget.route)?.firstRenderLoads ?? [];
      const keys = [entry, budget.route, ...firstRender].flatMap((key) => [...firstLoadFiles(key)]);
      const files = new Set(keys.map((key) => manifest[key]!.file).filter((file) => file.endsWith('.js')));
      const total = [...files].reduce((sum, file) => sum + gzippedSize(file), 0);
      console.info(`${budget.name}: ${(total / KB).toFixed(1)} KB gzipped in ${files.size} files`);
      expect(total).toBeLessThan(budget.limit);
      // Zod and the zone list load with the forms that validate or choose a zone, never first (095).
      for (const file of files) {
        const text = fs.readFileSync(path.join(outDir, file), 'utf8');
        expect(text.includes('ZodError'), `${file} carries zod`).toBe(false);
        expect(text.includes('Pacific/Kiritimati'), `${file} carries the zone list`).toBe(false);
      }
      // No other signed-in area rides along.
      for (const area of SIGNED_IN_AREAS.filter((area) => area !== budget.route)) expect(files).not.toContain(manifest[area]!.file);
    });
  }

  // The team member's phone dashboard lists their open work under the cards at once (task-dashboard.tsx):
  // the list draws a Send for Approval button per row, whose dialog loads on first use (decision record 099).
  it("keeps the dialogs out of the team member's open work", () => {
    const files = [...firstLoadFiles('src/features/tasks/components/dashboard-panels.tsx')].map((key) => manifest[key]!.file);
    for (const dialog of ['src/features/tasks/components/send-for-approval-dialog.tsx', 'src/features/tasks/components/decline-form.tsx']) {
      expect(manifest[dialog], `${dialog} is a chunk of its own`).toBeDefined();
      expect(files, dialog).not.toContain(manifest[dialog]!.file);
    }
    // The modal (Radix's dialog) is a chunk the dialogs share.
    expect(files.filter((file) => /^assets\/modal-[\w-]+\.js$/.test(file))).toEqual([]);
  });

  // Every route loads the entry and all it imports statically; as one file (and Rolldown's small
  // runtime) it costs a phone's connection one round trip, not seven (vite.config.ts, group `entry`).
  it('keeps what every route loads first in the entry chunk', () => {
    const entry = entryKey();
    const files = [...firstLoadFiles(entry)].map((key) => manifest[key]!.file).filter((file) => file.endsWith('.js'));
    expect(files.filter((file) => !/^assets\/rolldown-runtime-[\w-]+\.js$/.test(file)), 'files index.html loads first').toEqual([manifest[entry]!.file]);
  });

  // index.html's route-preload script (route-preload.ts, decision record 036) starts a route's chunks
  // beside the entry: for each area, exactly its first load minus what index.html already preloads.
  it("has index.html preload the opened area's first load beside the entry", () => {
    const script = routePreloadScript();
    expect(script, 'index.html loads the route-preload script').toBeDefined();
    const routes = JSON.parse(/var routes = (\{.*\});/.exec(script!)![1]!) as Record<string, string[]>;
    const entry = entryKey();
    const atStart = new Set([...firstLoadFiles(entry)].map((key) => manifest[key]!.file));
    for (const [pathname, route, firstRender] of [
      ['/manager', 'src/app/routes/manager/area.tsx', ['src/features/offline/components/offline-tools.tsx']],
      ['/team-member', 'src/app/routes/team-member/area.tsx', ['src/features/offline/components/offline-tools.tsx']],
      ['/admin', 'src/app/routes/admin/area.tsx', []],
      ['/', 'src/app/routes/landing.tsx', []],
    ] as const) {
      const keys = [route, ...firstRender].flatMap((key) => [...firstLoadFiles(key)]);
      const expected = keys.map((key) => `/${manifest[key]!.file}`).filter((file) => !atStart.has(file.slice(1)));
      expect(new Set(routes[pathname]), pathname).toEqual(new Set(expected));
    }
  });

  // A screen opened directly (a link, a bookmark, a reload on it) starts its own files beside the area's:
  // without them its chunk was asked for only once the area had downloaded and drawn, a round trip and
  // the screen's bytes after everything else on a phone's connection.
  it('has index.html preload a screen opened directly beside its area', () => {
    const routes = JSON.parse(/var routes = (\{.*\});/.exec(routePreloadScript()!)![1]!) as Record<string, string[]>;
    const atStart = new Set([...firstLoadFiles(entryKey())].map((key) => manifest[key]!.file));
    const tools = 'src/features/offline/components/offline-tools.tsx';
    for (const [pathname, route, firstRender, screen] of [
      ['/manager/projects', 'src/app/routes/manager/area.tsx', [tools], 'src/app/routes/manager/projects.tsx'],
      ['/manager/drawings', 'src/app/routes/manager/area.tsx', [tools], 'src/app/routes/manager/drawings.tsx'],
      ['/manager/team-assignments', 'src/app/routes/manager/area.tsx', [tools], 'src/app/routes/manager/team-performance.tsx'],
      ['/team-performance', 'src/app/routes/manager/area.tsx', [tools], 'src/app/routes/manager/team-performance.tsx'],
      ['/team-member/projects', 'src/app/routes/team-member/area.tsx', [tools], 'src/app/routes/team-member/pages.tsx'],
      ['/team-member/drawings', 'src/app/routes/team-member/area.tsx', [tools], 'src/app/routes/team-member/drawings.tsx'],
      ['/admin/create-user', 'src/app/routes/admin/area.tsx', [], 'src/app/routes/admin/create-user.tsx'],
      ['/admin/drawings', 'src/app/routes/admin/area.tsx', [], 'src/app/routes/admin/drawings.tsx'],
    ] as const) {
      const keys = [route, ...firstRender, screen].flatMap((key) => [...firstLoadFiles(key)]);
      const expected = keys.map((key) => `/${manifest[key]!.file}`).filter((file) => !atStart.has(file.slice(1)));
      expect(new Set(routes[pathname]), pathname).toEqual(new Set(expected));
    }
  });

  // The projects screen opens on the list of projects; an opened project's major tasks, with the forms that
  // add and decide on subtasks, load once the list is idle or a project is opened (company-projects.tsx).
  it("keeps zod and the forms out of the manager's projects screen until a project is opened", () => {
    const files = [...firstLoadFiles('src/app/routes/manager/projects.tsx')].map((key) => manifest[key]!.file).filter((file) => file.endsWith('.js'));
    for (const file of files) expect(fs.readFileSync(path.join(outDir, file), 'utf8').includes('ZodError'), `${file} carries zod`).toBe(false);
    expect(files).not.toContain(manifest['src/features/tasks/components/major-task-list.tsx']?.file);
    expect(files).not.toContain(manifest['src/features/tasks/components/create-subtask-form.tsx']?.file);
  });

  // The drawings screens open on the list of sheets; the deep-zoom viewer (OpenSeadragon, ~60 KB brotli)
  // loads when a sheet is opened or its name pointed at.
  it('keeps OpenSeadragon out of the drawings screens until a sheet is opened', () => {
    expect(manifest['src/features/sheets/components/sheet-viewer.tsx'], 'the viewer is a chunk of its own').toBeDefined();
    for (const screen of ['manager', 'team-member', 'admin'].map((area) => `src/app/routes/${area}/drawings.tsx`)) {
      for (const key of firstLoadFiles(screen)) {
        const file = manifest[key]!.file;
        if (file.endsWith('.js')) expect(fs.readFileSync(path.join(outDir, file), 'utf8').includes('OpenSeadragon'), `${screen}: ${file} carries OpenSeadragon`).toBe(false);
      }
    }
  });

  // The same script leaves each area's next screens for the area to prefetch when idle (lazy-screen.tsx):
  // every screen it imports lazily, with the files that neither index.html nor the area's first load brought.
  it('lists the files of each area’s next screens, screen by screen', () => {
    const nextScreens = JSON.parse(/window\.__siteboardNextScreens = (\{.*\});/.exec(routePreloadScript()!)![1]!) as Record<string, string[][]>;
    const entry = entryKey();
    const fileSet = (keys: string[]) => new Set(keys.flatMap((key) => [...firstLoadFiles(key)]).map((key) => `/${manifest[key]!.file}`));
    const areas = [
      ['/manager', 'src/app/routes/manager/area.tsx', ['projects', 'create-task', 'my-tasks', 'team-performance', 'daily-log', 'drawings'].map((name) => `src/app/routes/manager/${name}.tsx`)],
      ['/team-member', 'src/app/routes/team-member/area.tsx', ['src/app/routes/team-member/pages.tsx', 'src/app/routes/team-member/drawings.tsx']],
      // The dashboard's editing parts (its tables' edit rows, the set-password dialog) load on first use
      // and the appraisal report after the first paint; the area prefetches them when idle too, before its
      // other screens (095, 098).
      ['/admin', 'src/app/routes/admin/area.tsx', [
        'src/features/projects/components/project-edit-row.tsx',
        'src/features/users/components/set-password-form.tsx',
        'src/features/users/components/user-edit-row.tsx',
        'src/features/reports/components/admin-appraisal-report.tsx',
        ...['create-user', 'create-project', 'invitations', 'company-settings', 'daily-log', 'drawings'].map((name) => `src/app/routes/admin/${name}.tsx`),
      ]],
    ] as const;
    expect(Object.keys(nextScreens).sort()).toEqual(areas.map(([pathname]) => pathname).sort());
    for (const [pathname, area, screens] of areas) {
      const loaded = fileSet([entry, area, ...(ROUTE_CHUNKS.find((route) => route.path === pathname)?.firstRenderLoads ?? [])]);
      const expected = screens.map((screen) => new Set([...fileSet([screen])].filter((file) => !loaded.has(file))));
      expect(nextScreens[pathname]!.map((files) => new Set(files)), pathname).toEqual(expected);
      // Each screen's own chunk is among its files: nothing the click needs is left out.
      screens.forEach((screen, index) => expect(nextScreens[pathname]![index], screen).toContain(`/${manifest[screen]!.file}`));
    }
  });
});
