import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { precompress } from './precompress.ts';
import { routePreload } from './route-preload.ts';

const apiTarget = process.env.API_TARGET ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    // The route being opened starts its chunks beside the entry chunk (decision record 036).
    routePreload(),
    // Scripts and styles compressed once at the strongest settings, sent as they are by the server.
    precompress(),
    // Installable, and the app shell loads without a signal after one visit (issue 20). The
    // worker is registered from the signed-in areas only (features/offline), never by the
    // landing page; a new build waits for the user's "Reload" (registerType prompt).
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg'],
      manifest: {
        name: 'SiteBoard',
        short_name: 'SiteBoard',
        description: 'Plan projects, assign tasks and track progress on every job site.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: '#0f172a',
        background_color: '#f8fafc',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        // Every screen is the SPA's index.html; the API, the WebSocket and the docs are never the shell.
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/projects\/api\//, /^\/ws\//],
        cleanupOutdatedCaches: true,
        // A drawing's tiles and preview seen once stay viewable offline, at the zoom levels that were
        // seen (issue 43). They never change under their URL (a new version is a new sheet), so the
        // cache answers first; at most 3,000 of them (~50 MB of 256 px JPEG), the least recent go first.
        runtimeCaching: [
          {
            urlPattern: ({ sameOrigin, url }) => sameOrigin && /^\/api\/sheets\/\d+\/(tiles\/|preview\/)/.test(url.pathname),
            handler: 'CacheFirst',
            options: {
              cacheName: 'sheet-tiles',
              expiration: { maxEntries: 3000, purgeOnQuotaError: true },
              cacheableResponse: { statuses: [200] },
            },
          },
        ],
      },
    }),
  ],
  resolve: {
    alias: [
      // Radix's scroll lock adds its rules through this package as a <style> element, which the
      // app's CSP refuses; the same API with a constructed style sheet (src/lib/style-singleton.ts).
      { find: /^react-style-singleton$/, replacement: fileURLToPath(new URL('./src/lib/style-singleton.ts', import.meta.url)) },
    ],
  },
  build: {
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // What index.html's entry imports statically (React, the router, the query library, the texts) in
              // one chunk: every route loads all of it, and Rolldown would split it by the lazily loaded screens
              // that share each part, seven files where each costs a phone's connection a round trip.
              name: 'entry',
              tags: ['$initial'],
              priority: 3,
            },
            {
              // The shared values every screen reads (roles, list headers, project statuses, permissions), apart
              // from...
              name: 'shared-values',
              test: /packages[\\/]shared[\\/]src[\\/](lists|list-sizes|live|permissions|project-status|roles|subtask-values)\.ts$/,
              priority: 2,
            },
            {
              // ...zod and the shared schemas the dashboards' lazy screens use: they stay with the forms and screens
              // that validate. Left to itself, Rolldown moves them into a chunk the dashboards load first, since
              // every screen that needs them is opened from there (decision record 036).
              name: 'schemas',
              test: /node_modules[\\/]zod[\\/]|packages[\\/]shared[\\/]src[\\/](common|projects|tasks|users)\.ts$/,
              priority: 1,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': apiTarget,
      '/projects/api': apiTarget,
      '/ws': { target: apiTarget, ws: true },
    },
  },
});
