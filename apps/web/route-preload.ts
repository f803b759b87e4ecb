import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { Plugin } from 'vite';

/** Loaded lazily by the work areas' shell in its first render (src/app/work-area-tools.tsx). */
const OFFLINE_TOOLS = 'src/features/offline/components/offline-tools.tsx';

/** An area's screens whose module is named as their path (`src/app/routes/<area>/<screen>.tsx`). */
function areaScreens(area: string, screens: string[]): Record<string, string> {
  return Object.fromEntries(screens.map((screen) => [screen, `src/app/routes/${area}/${screen}.tsx`]));
}

/**
 * The chunk of each lazily loaded route (src/app/app-routes.tsx), by the path it serves: a path
 * equal to `path` or below it (`/manager/projects`), or exactly `/` for the landing page.
 * `firstRenderLoads`: modules the route's first render imports lazily; they start beside it too,
 * instead of after that render (a request that, on a phone's connection, held the first paint).
 * `screens`: an area's screens by their path below the area's (`projects` for `/manager/projects`)
 * and the module the area loads lazily for it. A screen opened directly (a link, a bookmark, a
 * reload) starts its chunk beside the area's, not once the area has downloaded and drawn: on a
 * phone's connection that was one more round trip and the screen's bytes after everything else.
 */
export const ROUTE_CHUNKS: { path: string; module: string; firstRenderLoads?: string[]; screens?: Record<string, string> }[] = [
  { path: '/', module: 'src/app/routes/landing.tsx' },
  { path: '/company-selection', module: 'src/app/routes/company-selection.tsx' },
  { path: '/login', module: 'src/app/routes/login.tsx' },
  { path: '/signup', module: 'src/app/routes/signup.tsx' },
  { path: '/admin', module: 'src/app/routes/admin/area.tsx', screens: areaScreens('admin', ['create-user', 'create-project', 'invitations', 'company-settings', 'daily-log', 'drawings']) },
  {
    path: '/manager',
    module: 'src/app/routes/manager/area.tsx',
    firstRenderLoads: [OFFLINE_TOOLS],
    screens: { ...areaScreens('manager', ['projects', 'create-task', 'my-tasks', 'daily-log', 'drawings']), 'team-assignments': 'src/app/routes/manager/team-performance.tsx' },
  },
  { path: '/team-performance', module: 'src/app/routes/manager/area.tsx', firstRenderLoads: [OFFLINE_TOOLS, 'src/app/routes/manager/team-performance.tsx'] },
  {
    path: '/team-member',
    module: 'src/app/routes/team-member/area.tsx',
    firstRenderLoads: [OFFLINE_TOOLS],
    screens: {
      ...Object.fromEntries(['projects', 'create-task', 'my-tasks', 'daily-log'].map((screen) => [screen, 'src/app/routes/team-member/pages.tsx'])),
      drawings: 'src/app/routes/team-member/drawings.tsx',
    },
  },
];

/**
 * The calls each area's dashboard draws its first screen from, by the dashboard's own path (exactly):
 * its answer, the profile that confirms the stored user, and (the admin's) the mail setting its
 * first screen's links depend on. The script starts them for a stored session while the scripts
 * download (src/lib/first-call.ts).
 */
export const FIRST_CALLS: Record<string, string[]> = {
  '/admin': ['/api/admin-dashboard/', '/api/profile/', '/api/email/'],
  '/manager': ['/api/dashboard-summary/', '/api/profile/'],
  '/team-member': ['/api/dashboard-summary/', '/api/profile/'],
};

/** The languages the app speaks: its folders of texts (src/lib/i18n.ts's LANGUAGES, which the key parity test holds to them). */
const languages = () => fs.readdirSync(new URL('./src/locales/', import.meta.url), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);

interface BundleChunk {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  dynamicImports: string[];
}

/**
 * The script itself: starts the files of the route being opened at once, beside the entry chunk, and
 * leaves each area's next screens (their files, screen by screen) for the area to prefetch when idle
 * (src/app/lazy-screen.tsx). For a dashboard opened with a stored session it also starts the calls its
 * first screen draws from, as the app's api-client would send it (token, language; the HTTP cache's
 * ETag), for the app to take up instead of asking again (src/lib/first-call.ts, decision record 099).
 */
export const preloadSource = (routes: Record<string, string[]>, nextScreens: Record<string, string[][]>, firstCalls: Record<string, string[]>, languages: string[]) => `(function () {
  window.__siteboardNextScreens = ${JSON.stringify(nextScreens)};
  var routes = ${JSON.stringify(routes)};
  var path = location.pathname.replace(/\\/+$/, '') || '/';
  var calls = ${JSON.stringify(firstCalls)}[path];
  try {
    var token = calls && typeof fetch === 'function' && localStorage.getItem('token');
    // A user who must choose a new password first is refused every call but the profile: none is started.
    if (token && /"must_change_password":true/.test(localStorage.getItem('user') || '')) token = null;
    if (token) {
      // The page's language as src/lib/i18n.ts's initialLanguage() finds it: this device's choice, else the browser's.
      var languages = ${JSON.stringify(languages)};
      var language = localStorage.getItem('language');
      var preferred = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
      for (var i = 0; languages.indexOf(language) < 0 && i < preferred.length; i++) language = String(preferred[i] || '').trim().toLowerCase().split(/[-_]/)[0];
      if (languages.indexOf(language) < 0) language = 'en';
      var startedAt = performance.now();
      window.__siteboardFirstCalls = calls.map(function (call) {
        return {
          path: call,
          token: token,
          language: language,
          startedAt: startedAt,
          response: fetch(call, { headers: { Accept: 'application/json', 'Accept-Language': language, Authorization: 'Bearer ' + token } }).catch(function () {
            return null;
          })
        };
      });
    }
  } catch (error) {
    // No storage (a private window's policy): the app asks itself.
  }
  var files = routes[path];
  for (var prefix in routes) if (!files && prefix !== '/' && path.indexOf(prefix + '/') === 0) files = routes[prefix];
  (files || []).forEach(function (file) {
    var link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = file;
    document.head.appendChild(link);
  });
})();
`;

/**
 * Without a hint the browser finds a route's chunk only once the entry chunk (React, the router,
 * the English texts) has downloaded and run, and that chunk's imports only after it: a chain of
 * round trips before a signed-in area can draw. This build step writes a small script, loaded
 * `async` from index.html, that preloads the current path's chunk and all its static imports, so
 * they download beside the entry. A separate file, not inline: the server's CSP allows no inline
 * script (apps/server/src/platform/http/security-headers.ts). Decision record 036.
 */
export function routePreload(base = '/'): Plugin {
  return {
    name: 'siteboard:route-preload',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((item): item is typeof item & BundleChunk => item.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const closure = (file: string, seen = new Set<string>()) => {
        if (seen.has(file)) return seen;
        seen.add(file);
        for (const imported of byFile.get(file)?.imports ?? []) closure(imported, seen);
        return seen;
      };
      const entries = chunks.filter((chunk) => chunk.isEntry);
      if (entries.length !== 1) this.error(`route-preload: expected one entry chunk (index.html's), found ${entries.length}`);
      const entry = entries[0]!;
      // index.html already preloads the entry and its imports.
      const atStart = closure(entry.fileName);
      const routes: Record<string, string[]> = {};
      const chunkOf = (module: string, path: string) => {
        const chunk = chunks.find((candidate) => candidate.facadeModuleId?.endsWith(`/${module}`));
        if (!chunk) this.error(`route-preload: ${module} (${path}) is not a chunk of its own`);
        return chunk;
      };
      // The screens an area imports lazily (one click away), each with the files it needs that the
      // area's first load has not brought, keyed by the area's first path.
      const nextScreens: Record<string, string[][]> = {};
      const areasSeen = new Set<string>();
      for (const route of ROUTE_CHUNKS) {
        const area = chunkOf(route.module, route.path);
        const files = closure(area.fileName);
        for (const module of route.firstRenderLoads ?? []) closure(chunkOf(module, route.path).fileName, files);
        routes[route.path] = [...files].filter((file) => !atStart.has(file)).map((file) => `${base}${file}`);
        for (const [screen, module] of Object.entries(route.screens ?? {})) {
          const screenFiles = closure(chunkOf(module, `${route.path}/${screen}`).fileName, new Set(files));
          routes[`${route.path}/${screen}`] = [...screenFiles].filter((file) => !atStart.has(file)).map((file) => `${base}${file}`);
        }
        if (area.dynamicImports.length === 0 || areasSeen.has(route.module)) continue;
        areasSeen.add(route.module);
        nextScreens[route.path] = area.dynamicImports.map((screen) => [...closure(screen)].filter((file) => !atStart.has(file) && !files.has(file)).map((file) => `${base}${file}`));
      }
      const source = preloadSource(routes, nextScreens, FIRST_CALLS, languages());
      const fileName = `assets/route-preload-${createHash('sha256').update(source).digest('hex').slice(0, 8)}.js`;
      this.emitFile({ type: 'asset', fileName, source });
      const html = bundle['index.html'];
      if (!html || html.type !== 'asset') this.error('route-preload: no index.html in the bundle');
      const tag = `<script async src="${base}${fileName}"></script>`;
      const text = String(html.source);
      if (!text.includes('</head>')) this.error('route-preload: index.html has no </head>');
      html.source = text.replace(/(<script type="module"[^>]*><\/script>)/, `$1\n    ${tag}`);
      if (html.source === text) this.error('route-preload: no entry <script type="module"> in index.html');
    },
  };
}
