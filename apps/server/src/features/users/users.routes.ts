import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PERMISSIONS, TOTAL_COUNT_HEADER, createUserInput, errorResponse, idParams, updateUserInput, userListQuery, userSchema } from '@siteboard/shared';
import { sendPage } from '../../lib/lists';
import { requireRole } from '../../plugins/auth';
import { createUser, deleteUser, listUsers, updateUser } from './users.service';

const tags = ['users'];
const security = [{ bearer: [] }];
const failures = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

/** The company's people: everyone reads them (assignee pickers), admins manage them. */
export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const manage = requireRole(...PERMISSIONS['users:manage']);

  app.get('/api/users/', {
    schema: {
      tags,
      summary: "List the company's active users, by e-mail",
      description: `Filter by role and e-mail; page with limit and offset, and the answer carries the number of matching users in the ${TOTAL_COUNT_HEADER} header.`,
      security,
      querystring: userListQuery,
      response: { 200: z.array(userSchema), 400: errorResponse, 401: errorResponse },
    },
    handler: async (request, reply) => sendPage(reply, await listUsers(request.ctx, request.query)),
  });

  app.post('/api/users/', {
    preValidation: manage,
    schema: {
      tags,
      summary: 'Create a manager or team member (a team member gets their team-member record too)',
      security,
      body: createUserInput,
      response: { 201: userSchema, ...failures },
    },
    handler: async (request, reply) => reply.code(201).send(await createUser(request.ctx, request.body)),
  });

  app.patch('/api/users/:id/', {
    preValidation: manage,
    schema: {
      tags,
      summary: "Edit another user's role, designation, mobile number or manager",
      security,
      params: idParams,
      body: updateUserInput,
      response: { 200: userSchema, ...failures },
    },
    handler: async (request) => updateUser(request.ctx, request.params.id, request.body),
  });

  app.delete('/api/users/:id/', {
    preValidation: manage,
    schema: {
      tags,
      summary: 'Delete another user: they leave every list and their sessions end; history keeps naming them',
      security,
      params: idParams,
      response: { 204: z.null().describe('Deleted'), ...failures },
    },
    handler: async (request, reply) => {
      await deleteUser(request.ctx, request.params.id);
      return reply.code(204).send(null);
    },
  });
};
