import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { negotiateLanguage, type Language } from '@siteboard/shared';

const API_PREFIXES = ['/api/', '/projects/api/'];

/**
 * Whose language an answer is written in: the signed-in user's own, else the browser's
 * (`Accept-Language`), else English (decision record 032).
 */
export function readerLanguage(request: FastifyRequest): Language {
  return request.user?.language ?? negotiateLanguage(request.headers['accept-language']);
}

/** Every API answer says which language its texts are in; one that followed Accept-Language varies by it. */
export const languagePlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', async (request, reply, payload) => {
      if (!API_PREFIXES.some((prefix) => request.url.startsWith(prefix))) return payload;
      reply.header('Content-Language', readerLanguage(request));
      if (!request.user) reply.header('Vary', 'Accept-Language');
      return payload;
    });
  },
  { name: 'language' },
);
