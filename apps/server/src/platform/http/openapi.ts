import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { docsCsp } from './security-headers';

const UPLOAD_BODY = {
  type: 'object',
  required: ['file'],
  properties: { file: { type: 'string', format: 'binary', description: 'One image: JPEG, PNG, WebP or HEIC, at most 10 MB' } },
};

/** The OpenAPI document is generated from the same zod schemas the routes validate with. */
export const openapiPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        info: { title: 'SiteBoard API', description: 'Projects, tasks and people for job sites.', version: '1.0.0' },
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      },
      transform: (route) => {
        const transformed = jsonSchemaTransform(route);
        // An upload route reads its multipart body itself (no body schema to validate against):
        // the document still says what to send.
        if (!route.schema?.consumes?.includes('multipart/form-data')) return transformed;
        return { ...transformed, schema: { ...transformed.schema, body: UPLOAD_BODY } };
      },
    });
    await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true, transformStaticCSP: docsCsp });
    app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'openapi' },
);
