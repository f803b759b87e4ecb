import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DONE_AT_HEADER, KEYED_WRITE_METHODS, TOTAL_COUNT_HEADER, errorResponse } from '@siteboard/shared';
import { REPLAYED_HEADER } from './idempotency';
import { docsCsp } from './security-headers';

/** An upload route's multipart body: the field "file", described by the route's own limits. */
const uploadBody = (file: string) => ({
  type: 'object',
  required: ['file'],
  properties: { file: { type: 'string', format: 'binary', description: file } },
});

const ERROR = { ...z.toJSONSchema(errorResponse, { target: 'openapi-3.0' }), $schema: undefined };
/** The key idempotency.ts takes: printable ASCII, not only spaces (decision record 031). */
const KEY_PATTERN = '^[\\x20-\\x7e]*[\\x21-\\x7e][\\x20-\\x7e]*$';

type JsonSchema = Record<string, unknown>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's success sets the caller's device cookie (sign-in's throttling, decision record 053): the document says so. */
    setsDeviceCookie?: boolean;
  }
}

const DEVICE_COOKIE = {
  'Set-Cookie': {
    type: 'string',
    description:
      'siteboard_device_<16 base64url characters>=<device token>; HttpOnly; SameSite=Strict; Path=/api/; Max-Age (a year). Sent back on later sign-ins, it keeps a device that signed in to this account before out of a stranger\'s lockout',
  },
};
type Responses = Record<string, JsonSchema>;

/** Answers every route of a kind can give, whatever the route itself lists. */
function withAnswer(responses: Responses, status: number, description: string, extra: JsonSchema = {}) {
  responses[status] = { ...(responses[status] ?? { ...ERROR }), description, ...extra };
}

const retryAfter = { headers: { 'Retry-After': { type: 'integer', minimum: 1, description: 'Seconds to wait before trying again' } } };

/**
 * What the server does for every route beside what each route's own schema says, written into
 * its operation: a 204 or 304 has no body; a paged list carries X-Total-Count; a signed-in write
 * takes Idempotency-Key (and may answer 409, 422 or a replay) unless it is `repeatable`; a body
 * may be too large (413) or of a type the route does not take (415); a signed-in call may be refused its token (401) or be
 * refused until the caller changes a password an admin set (403); a 429, a
 * 503 or a 507 (the disk is full) says when to come back (Retry-After).
 */
function documentServerWide(method: string, schema: JsonSchema, { setsDeviceCookie, repeatable }: { setsDeviceCookie: boolean; repeatable: boolean }): JsonSchema {
  const responses: Responses = { ...(schema.response as Responses | undefined) };
  if (setsDeviceCookie && responses['200']) responses['200'] = { ...responses['200'], headers: { ...(responses['200'].headers as JsonSchema), ...DEVICE_COOKIE } };
  for (const status of ['204', '304']) {
    if (responses[status]) responses[status] = { type: 'null', description: responses[status].description ?? 'No content' };
  }
  const query = schema.querystring as { properties?: Record<string, unknown> } | undefined;
  if (method === 'GET' && query?.properties?.limit && responses['200']) {
    responses['200'] = {
      ...responses['200'],
      headers: { [TOTAL_COUNT_HEADER]: { type: 'integer', minimum: 0, description: 'How many rows match, over all pages (JSON answers)' } },
    };
  }
  const signedIn = Array.isArray(schema.security) && schema.security.length > 0;
  if (signedIn) {
    withAnswer(responses, 401, 'No valid access token');
    // Every signed-in call but the profile and the password change itself (decision record 052).
    responses['403'] ??= { ...ERROR, description: 'Refused: not for this caller; with code password_change_required, the password an admin set must be changed first' };
  }
  withAnswer(responses, 500, 'The server failed; nothing was changed');
  // Any call that reads or writes the database (errors.ts): a route's own 503 keeps its description too.
  const lost = 'The database connection was lost during the call (a restart, a failover): send it again after Retry-After (a write with its Idempotency-Key acts once)';
  const busy = responses['503'];
  responses['503'] = busy ? { ...busy, description: `${String(busy.description)}; or: ${lost}`, headers: { ...(busy.headers as JsonSchema | undefined), ...retryAfter.headers } } : { ...ERROR, description: lost, ...retryAfter };
  // Any call that needs room on the disk (errors.ts): a write, an upload, a read that spills a sort.
  responses['507'] ??= { ...ERROR, description: 'The disk under the database or the server is full; nothing was changed: send it again after Retry-After, once an administrator has made room', ...retryAfter };
  const result: JsonSchema = { ...schema, response: responses };
  if (schema.body) {
    withAnswer(responses, 413, 'The body is too large');
    withAnswer(responses, 415, 'The body is of a type this call does not take');
  }
  if (signedIn && KEYED_WRITE_METHODS.has(method) && !repeatable) {
    const headers = (schema.headers as JsonSchema | undefined) ?? { type: 'object', properties: {} };
    result.headers = {
      ...headers,
      properties: {
        ...(headers.properties as JsonSchema),
        'Idempotency-Key': {
          type: 'string',
          minLength: 1,
          maxLength: 255,
          pattern: KEY_PATTERN,
          description: 'Makes a repeat of this write act once: the same key with the same request within a week gets the first answer again (with Idempotent-Replayed: true)',
        },
        [DONE_AT_HEADER]: {
          type: 'string',
          format: 'date-time',
          description:
            "A write sent later (made offline): when the person made it, as an ISO 8601 time with its zone, the same on every resend. The subtask history's lines it writes keep it as their done_at (created_at stays the arrival); ignored, never refused, when missing, malformed, later than the arrival by more than 5 minutes' clock skew, or older than a week",
        },
      },
    };
    withAnswer(responses, 400, 'Refused: see detail');
    withAnswer(responses, 409, 'A request with this Idempotency-Key is still in progress (code idempotency_key_in_progress; come back after Retry-After)', {
      headers: { ...(responses['409']?.headers as JsonSchema | undefined), ...retryAfter.headers },
    });
    withAnswer(responses, 422, 'This Idempotency-Key was used for a different request');
    for (const [status, response] of Object.entries(responses)) {
      if (status.startsWith('2')) responses[status] = { ...response, headers: { ...(response.headers as JsonSchema), [REPLAYED_HEADER]: { type: 'string', enum: ['true'], description: 'Set on an answer sent again for a repeated Idempotency-Key' } } };
    }
  }
  for (const status of ['429', '503']) {
    if (responses[status]) responses[status] = { ...responses[status], ...retryAfter, headers: { ...(responses[status].headers as JsonSchema), ...retryAfter.headers } };
  }
  return result;
}

/** The OpenAPI document is generated from the same zod schemas the routes validate with. */
export const openapiPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        info: { title: 'SiteBoard API', description: 'Projects, tasks and people for job sites.', version: '1.0.0' },
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      },
      transform: (document) => {
        const transformed = jsonSchemaTransform(document);
        if (!transformed.schema || transformed.schema.hide) return transformed;
        // An upload route reads its multipart body itself (no body schema to validate against):
        // the document still says what to send.
        const upload = document.schema?.consumes?.includes('multipart/form-data') ? document.route.config?.upload : undefined;
        const schema = upload ? { ...transformed.schema, body: uploadBody(upload.file) } : transformed.schema;
        const method = [document.route.method].flat()[0]!.toUpperCase();
        const config = document.route.config;
        return { ...transformed, schema: documentServerWide(method, schema as JsonSchema, { setsDeviceCookie: config?.setsDeviceCookie === true, repeatable: config?.repeatable === true }) };
      },
    });
    await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true, transformStaticCSP: docsCsp });
    app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'openapi' },
);
