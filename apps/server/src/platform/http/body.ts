import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ValidationError } from '../errors';

/** No request needs more than a few levels (a major task's subtasks are three deep). */
export const MAX_JSON_DEPTH = 32;
export const JSON_TOO_DEEP = 'The request body is nested too deeply.';

/**
 * Whether the JSON text opens more than `maxDepth` arrays or objects inside each other: one pass
 * over the characters, stopping at the first level too deep, so that a body nested 500,000 levels
 * is refused before the parser and the schema walk it.
 */
export function nestsDeeperThan(json: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < json.length; index++) {
    const code = json.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return false;
}

/** JSON bodies are checked for depth, then parsed by Fastify's own parser (which guards against prototype poisoning). */
export const bodyPlugin = fp(
  async (app: FastifyInstance) => {
    const parseJson = app.getDefaultJsonParser(app.initialConfig.onProtoPoisoning ?? 'error', app.initialConfig.onConstructorPoisoning ?? 'ignore');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (nestsDeeperThan(body as string, MAX_JSON_DEPTH)) return done(new ValidationError(JSON_TOO_DEEP), undefined);
      parseJson(request, body as string, done);
    });
  },
  { name: 'body' },
);

/** How much of a refused body is read and dropped so that its sender reads the refusal; past this the connection is closed. */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
const DRAIN_MAX_MS = 10_000;

/**
 * Reads and drops the rest of a body the server refused unread. A client that writes its whole
 * body before reading (most do) then reads the answer; closing the connection on unread data
 * would reset it, and the client would report a network error instead of the 413.
 */
export function drainRequestBody(raw: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    if (raw.complete) return resolve();
    let received = 0;
    const finish = () => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', finish);
      raw.off('error', finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > DRAIN_MAX_BYTES) finish();
    };
    const timer = setTimeout(finish, DRAIN_MAX_MS);
    raw.on('data', onData);
    raw.once('end', finish);
    raw.once('error', finish);
    raw.resume();
  });
}
