import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { readerLanguage } from './reader-language';

const API_PREFIXES = ['/api/', '/projects/api/'];

/** Every API answer says which language its texts are in; one that followed Accept-Language varies by it. */
export const languagePlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', async (request, reply, payload) => {
      // A route that knows its answer's language (a calendar feed is in its owner's) says so itself.
      if (!API_PREFIXES.some((prefix) => request.url.startsWith(prefix)) || reply.hasHeader('content-language')) return payload;
      reply.header('Content-Language', readerLanguage(request));
      if (!request.user) reply.header('Vary', 'Accept-Language');
      return payload;
    });
  },
  { name: 'language' },
);
