import type { FastifyRequest } from 'fastify';
import { negotiateLanguage, type Language } from '@siteboard/shared';

/**
 * Whose language an answer is written in: the signed-in user's own, else the browser's
 * (`Accept-Language`), else English (decision record 032).
 */
export function readerLanguage(request: FastifyRequest): Language {
  return request.user?.language ?? negotiateLanguage(request.headers['accept-language']);
}
