import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { translateMessage, type Language } from '@siteboard/shared';
import { diskFull, isConcurrentChangeFailure, isConnectionLost } from '../database/db-errors';
import { AppError, type FieldErrors } from '../errors';
import { drainRequestBody } from './body';
import { ReplayedAnswer, sendReplay } from './idempotency';
import { readerLanguage } from './reader-language';
import { helmetHeaders } from './security-headers';

const BODY_FIELD = 'non_field_errors';

export const BODY_TOO_LARGE = 'The request body is too large: send at most 1 MB.';

export const CONNECTION_LOST = 'The connection to the database was lost. Try again in a moment.';
export const CHANGED_AT_THE_SAME_MOMENT = 'Someone changed the same thing at the same moment, and nothing was saved. Try again.';

export const DISK_FULL = 'The server has no room left to save this, and nothing was saved. Tell your administrator, then try again.';
/** A read that needed room on the disk (a large sort spilled to a temporary file). */
export const DISK_FULL_READ = 'The server has no room left on its disk to answer this. Tell your administrator, then try again.';

/** Helmet's headers, as every other answer carries them (worked out once, when first needed). */
let routerRefusalHeaders: Record<string, string> | undefined;

export const UNREADABLE_ADDRESS = 'This address is not valid: it holds percent-encoding that is no character.';

/**
 * The router's own refusals, before any route, hook or sign-in (Fastify's `frameworkErrors`): a
 * path whose percent-encoding decodes to no character is a 400 in the browser's language, worded
 * like every other refusal, not Fastify's English `FST_ERR_BAD_URL`.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const language = readerLanguage(request);
  // No hook runs before a route: the headers every answer of the API carries are set here.
  reply.headers({ ...(routerRefusalHeaders ??= helmetHeaders()), vary: 'Accept-Language', 'content-language': language, 'cache-control': 'no-store', 'x-request-id': request.id });
  if (error.code === 'FST_ERR_BAD_URL') return reply.code(400).send({ detail: translateMessage(UNREADABLE_ADDRESS, language) });
  request.log.error({ err: error }, 'the router failed');
  return reply.code(500).send({ detail: translateMessage('Internal server error.', language) });
}

/** How long a write refused for a full disk asks its sender to wait: room comes back when someone makes it, not in a moment. */
export const DISK_FULL_RETRY_SECONDS = 60;

/** What zod says of a value of the wrong kind, in words of the catalog: its own text ("Invalid input: expected string, received number") is English only. */
const KIND_TEXTS: Record<string, string> = {
  string: 'Must be text.',
  number: 'Must be a number.',
  int: 'Must be a number.',
  boolean: 'Must be true or false.',
  array: 'Must be a list.',
  object: 'Must be an object.',
};

/** The beginnings of zod's own English texts, which a schema that words its errors never leaves. */
const ZOD_DEFAULT = /^(Invalid input|Invalid option|Invalid string|Too small|Too big|Unrecognized key)/;

/** A validation issue's message: the schema's own text, or the catalog's for zod's built-in "wrong kind". */
function readableIssue(issue: { keyword: string; message?: string; params?: Record<string, unknown> }, context: string | undefined): string {
  if (!issue.message) return 'Invalid value.';
  if (issue.keyword !== 'invalid_type') return ZOD_DEFAULT.test(issue.message) ? 'Invalid value.' : issue.message;
  if (!issue.message.startsWith('Invalid input')) return issue.message;
  // A query parameter given twice arrives as a list.
  if (context === 'querystring' && issue.message.endsWith('received array') && issue.params?.expected !== 'array') return 'Give this parameter once.';
  return KIND_TEXTS[String(issue.params?.expected)] ?? 'Invalid value.';
}

function translateErrors(errors: FieldErrors, language: Language): FieldErrors {
  return Object.fromEntries(Object.entries(errors).map(([field, messages]) => [field, messages.map((message) => translateMessage(message, language))]));
}

/**
 * Every error leaves as `{detail, errors?}` in the reader's language (services and schemas write
 * English; the shared catalog translates it); a 5xx never shows its internals.
 */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler(async (error: FastifyError, request, reply) => {
      const language = readerLanguage(request);
      if (error instanceof AppError && error.retryAfterSeconds !== undefined) reply.header('Retry-After', String(error.retryAfterSeconds));
      // A keyed write that met its duplicate's committed answer sends that answer (idempotency.ts).
      if (error instanceof ReplayedAnswer) return sendReplay(reply, error.answer);
      if (error instanceof AppError) {
        const code = error.code === undefined ? {} : { code: error.code };
        if (!error.errors) return reply.code(error.statusCode).send({ detail: translateMessage(error.detail, language), ...code });
        const errors = translateErrors(error.errors, language);
        // A detail that lists every field's message (users.service's throwIfAny) is translated message by message.
        const listsFields = error.detail === Object.values(error.errors).flat().join(' ');
        const detail = listsFields ? Object.values(errors).flat().join(' ') : translateMessage(error.detail, language);
        return reply.code(error.statusCode).send({ detail, errors, ...code });
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const errors: FieldErrors = {};
        for (const issue of error.validation) {
          const field = issue.instancePath.split('/').filter(Boolean).join('.') || BODY_FIELD;
          const reason = readableIssue(issue, error.validationContext);
          const message = field === BODY_FIELD ? `The request ${error.validationContext ?? 'body'} is not valid: ${reason}` : reason;
          // Two checks of one value may say the same (a 90-digit id is both not an id and too large): said once.
          const said = (errors[field] ??= []);
          const translated = translateMessage(message, language);
          if (!said.includes(translated)) said.push(translated);
        }
        const detail = [...new Set(Object.values(errors).flat())].join(' ');
        return reply.code(400).send({ detail, errors });
      }
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        await drainRequestBody(request.raw);
        return reply.code(413).send({ detail: translateMessage(BODY_TOO_LARGE, language) });
      }
      const status = error.statusCode ?? 500;
      // Fastify's own 4xx (a body that is not JSON, an unsupported media type): the catalog knows the ones a client meets.
      if (status >= 400 && status < 500) return reply.code(status).send({ detail: translateMessage(error.message, language) });
      // The database ended the connection under the request (a restart, a failover, the embedded
      // session's hold limit): its transaction did not commit, and the same request may be sent
      // again (the offline app's queue does, with its Idempotency-Key).
      if (isConnectionLost(error)) {
        request.log.warn({ err: error }, 'database connection lost during the request');
        return reply.code(503).header('Retry-After', '1').send({ detail: translateMessage(CONNECTION_LOST, language) });
      }
      // Two changes crossed (a deadlock, a serialization failure): the database undid this one. The
      // same request may go again, and the offline queue sends it again after Retry-After.
      if (isConcurrentChangeFailure(error)) {
        request.log.warn({ err: error }, 'a change crossed another and was undone');
        return reply.code(503).header('Retry-After', '1').send({ detail: translateMessage(CHANGED_AT_THE_SAME_MOMENT, language) });
      }
      // The disk under the database (or under the server's own files) is full: the write did not
      // happen, reads still do. 507 says so to the client (the offline app keeps the write waiting
      // and sends it again later); the operator's log says what could not grow, without a stack.
      const noRoom = diskFull(error);
      if (noRoom) {
        request.log.error(noRoom, 'no room left on the disk: the request was refused with 507 and changed nothing');
        const text = request.method === 'GET' || request.method === 'HEAD' ? DISK_FULL_READ : DISK_FULL;
        return reply.code(507).header('Retry-After', String(DISK_FULL_RETRY_SECONDS)).send({ detail: translateMessage(text, language) });
      }
      request.log.error({ err: error }, 'request failed');
      return reply.code(500).send({ detail: translateMessage('Internal server error.', language) });
    });
  },
  { name: 'errors' },
);
