import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PERMISSIONS, TOTAL_COUNT_HEADER, createUserInput, deleteUserQuery, errorResponse, idParams, setPasswordInput, updateUserInput, userListQuery, userOpenWorkSchema, userSchema } from '@siteboard/shared';
import { sendPage } from '../../lib/lists';
import { guardedBy, requireRole } from '../../platform';
import { createUser, deleteUser, heirFound, listUsers, openWorkOfUser, notOneself, setUserPassword, updateUser, userFound } from './users.service';

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
    ...guardedBy(manage),
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
    ...guardedBy(manage, notOneself.edit, userFound),
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

  app.get('/api/users/:id/open-work/', {
    ...guardedBy(manage),
    schema: {
      tags,
      summary: 'What deleting another user would touch: their open subtasks and the team members they manage',
      description: 'Asked before a deletion is confirmed. Open subtasks (ongoing, in projects not completed) go to `reassign_to`; work sent for approval stays theirs; a manager with team members cannot be deleted until they are moved.',
      security,
      params: idParams,
      response: { 200: userOpenWorkSchema, ...failures },
    },
    handler: async (request) => openWorkOfUser(request.ctx, request.params.id),
  });

  app.delete('/api/users/:id/', {
    ...guardedBy(manage, notOneself.delete, userFound, heirFound),
    schema: {
      tags,
      summary: 'Delete another user: they leave every list and their sessions end; history keeps naming them',
      description:
        'Their open subtasks (ongoing, in projects not completed) go to `reassign_to` in the same step; work they sent for approval stays theirs, for their manager to review. With open work and no `reassign_to` the answer is 409 and its detail says how many subtasks are open. A `reassign_to` that is not of the company answers 404.',
      security,
      params: idParams,
      querystring: deleteUserQuery,
      response: { 204: z.null().describe('Deleted'), ...failures, 409: errorResponse },
    },
    handler: async (request, reply) => {
      await deleteUser(request.ctx, request.params.id, request.query);
      return reply.code(204).send(null);
    },
  });

  app.post('/api/users/:id/password/', {
    ...guardedBy(manage, notOneself.edit, userFound),
    schema: {
      tags,
      summary: "Set another user's password: their sessions end and they must change it at their next sign-in",
      security,
      params: idParams,
      body: setPasswordInput,
      response: { 204: z.null().describe('Password set'), ...failures },
    },
    handler: async (request, reply) => {
      await setUserPassword(request.ctx, request.params.id, request.body.password);
      return reply.code(204).send(null);
    },
  });
};
