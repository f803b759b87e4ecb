import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { translateMessage } from '@siteboard/shared';
import { serverRoot } from '../paths';
import { readerLanguage } from './reader-language';

const defaultWebDist = path.resolve(serverRoot, '../web/dist');
const API_PREFIXES = ['/api/', '/projects/api/', '/ws/'];

/**
 * Serves the built web app and answers every other GET with index.html (the SPA decides the
 * route); unknown API paths stay JSON 404s.
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
      const isApi = API_PREFIXES.some((prefix) => `${request.url.split('?')[0]}/`.startsWith(prefix));
      if (hasWeb && request.method === 'GET' && !isApi) {
        reply.header('Cache-Control', 'no-cache');
        return reply.sendFile('index.html');
      }
      return reply.code(404).send({ detail: translateMessage('Not found.', readerLanguage(request)) });
    });
  },
  { name: 'web' },
);
