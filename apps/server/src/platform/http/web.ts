import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { fill, translateMessage } from '@siteboard/shared';
import { serverRoot } from '../paths';
import { readerLanguage } from './reader-language';

const defaultWebDist = path.resolve(serverRoot, '../web/dist');
const API_PREFIXES = ['/api/', '/projects/api/', '/ws/'];
/** A path naming a file (an extension in its last segment, or anything under the build's assets): never a page of the app. */
const FILE_LIKE = /(^\/assets\/)|(\.[A-Za-z0-9]{1,12}$)/;

/**
 * Serves the built web app and answers every other GET of a page with index.html (the SPA decides
 * the route). A path that looks like a file (`/favicon.ico`, `/robots.txt`, an old build's hashed
 * asset) and is not one is a 404, as is an unknown API path (JSON); a method a known path does not
 * take is a 405 naming the ones it does (`Allow`).
 */
export const webPlugin = fp(
  async (app: FastifyInstance, options: { webDistDir?: string }) => {
    const webDist = options.webDistDir ?? defaultWebDist;
    const hasWeb = fs.existsSync(path.join(webDist, 'index.html'));
    if (hasWeb) {
      await app.register(fastifyStatic, {
        root: webDist,
        // One `/*` route that looks each path up, not a route per built file (300 of them, with their
        // .br and .gz copies): registering those was a tenth of the server's start. A path with no
        // file goes to the not-found handler below (index.html, or a JSON 404 under /api/).
        wildcard: true,
        // The build writes brotli and gzip copies of the scripts and styles at the strongest settings
        // (apps/web/precompress.ts): sent as they are, smaller than compressing on the fly.
        preCompressed: true,
        setHeaders(reply, filePath) {
          // Hashed file names never change content; index.html must always be revalidated.
          const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
          reply.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    }
    app.setNotFoundHandler((request, reply) => {
      const pathname = request.url.split('?')[0]!;
      const language = readerLanguage(request);
      const allowed = app.allowedMethods(pathname);
      // A path the routes take by this very method, yet no route matched: no 405 that allows it.
      if (allowed.length > 0 && !allowed.includes(request.method)) {
        return reply.code(405).header('Allow', allowed.join(', ')).send({ detail: translateMessage(fill('This address does not take {method}: use {allowed}.', { method: request.method, allowed: allowed.join(', ') }), language) });
      }
      const isApi = API_PREFIXES.some((prefix) => `${pathname}/`.startsWith(prefix));
      if (hasWeb && (request.method === 'GET' || request.method === 'HEAD') && !isApi && !FILE_LIKE.test(pathname)) {
        reply.header('Cache-Control', 'no-cache');
        return reply.sendFile('index.html');
      }
      return reply.code(404).send({ detail: translateMessage('Not found.', language) });
    });
  },
  { name: 'web', dependencies: ['allowed-methods'] },
);
