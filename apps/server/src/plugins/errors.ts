import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, TooManyRequestsError, type FieldErrors } from '../lib/errors';
import { drainRequestBody } from './body';

const BODY_FIELD = 'non_field_errors';

export const BODY_TOO_LARGE = 'The request body is too large: send at most 1 MB.';

/** Every error leaves as `{detail, errors?}`; a 5xx never shows its internals. */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler(async (error: FastifyError, request, reply) => {
      if (error instanceof TooManyRequestsError) reply.header('Retry-After', String(error.retryAfterSeconds));
      if (error instanceof AppError) {
        return reply.code(error.statusCode).send(error.errors ? { detail: error.detail, errors: error.errors } : { detail: error.detail });
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const errors: FieldErrors = {};
        for (const issue of error.validation) {
          const field = issue.instancePath.split('/').filter(Boolean).join('.') || BODY_FIELD;
          const message = field === BODY_FIELD ? `The request ${error.validationContext ?? 'body'} is not valid: ${issue.message}` : (issue.message ?? 'Invalid value.');
          (errors[field] ??= []).push(message);
        }
        const detail = [...new Set(Object.values(errors).flat())].join(' ');
        return reply.code(400).send({ detail, errors });
      }
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        await drainRequestBody(request.raw);
        return reply.code(413).send({ detail: BODY_TOO_LARGE });
      }
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) return reply.code(status).send({ detail: error.message });
      request.log.error({ err: error }, 'request failed');
      return reply.code(500).send({ detail: 'Internal server error.' });
    });
  },
  { name: 'errors' },
);
