import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PERMISSIONS,
  createMajorTaskInput,
  createSubtaskInput,
  errorResponse,
  exportFormatParam,
  idParams,
  majorTaskSchema,
  subtaskListQuery,
  subtaskSchema,
  taskListQuery,
  updateMajorTaskInput,
  updateSubtaskInput,
} from '@siteboard/shared';
import { jsonOrFiles, sendListAs } from '../../lib/exports';
import { sendPage } from '../../lib/lists';
import { guardedBy, requireRole } from '../../platform';
import {
  assertMayManageMajorTask,
  assigneeFound,
  createMajorTask,
  createSubtask,
  deleteMajorTask,
  getMajorTask,
  getSubtask,
  listPendingApprovals,
  listSubtasks,
  listTasksDueToday,
  pendingApprovalsExport,
  assertMayChangeSubtask,
  subtaskListExport,
  tasksDueTodayExport,
  updateMajorTask,
  updateSubtask,
} from './tasks.service';

const tags = ['tasks'];
const security = [{ bearer: [] }];
const refusals = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const listResponses = { 200: jsonOrFiles(z.array(subtaskSchema)), 400: errorResponse, 401: errorResponse };

export const tasksRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/major-tasks/:id/', {
    schema: { tags, security, summary: 'A major task with its subtasks', params: idParams, response: { 200: majorTaskSchema, ...refusals } },
    handler: async (request) => getMajorTask(request.ctx, request.params.id),
  });

  app.post('/api/major-tasks/', {
    ...guardedBy(requireRole(...PERMISSIONS['major-tasks:create'])),
    schema: { tags, security, summary: 'Create a major task with its subtasks', body: createMajorTaskInput, response: { 201: majorTaskSchema, ...refusals } },
    handler: async (request, reply) => reply.code(201).send(await createMajorTask(request.ctx, request.body)),
  });

  const managesMajorTask = async (request: FastifyRequest) => assertMayManageMajorTask(request.ctx, (request.params as { id?: unknown }).id);

  app.patch('/api/major-tasks/:id/', {
    ...guardedBy(requireRole(...PERMISSIONS['major-tasks:manage']), managesMajorTask),
    schema: { tags, security, summary: 'Rename or describe a major task', params: idParams, body: updateMajorTaskInput, response: { 200: majorTaskSchema, ...refusals } },
    handler: async (request) => updateMajorTask(request.ctx, request.params.id, request.body),
  });

  app.delete('/api/major-tasks/:id/', {
    ...guardedBy(requireRole(...PERMISSIONS['major-tasks:manage']), managesMajorTask),
    schema: { tags, security, summary: 'Delete a major task with its subtasks', params: idParams, response: { 204: z.null().describe('Deleted'), ...refusals } },
    handler: async (request, reply) => {
      await deleteMajorTask(request.ctx, request.params.id);
      return reply.code(204).send(null);
    },
  });

  app.get('/api/subtasks/', {
    ...guardedBy(assigneeFound),
    schema: {
      tags,
      security,
      summary: "The company's subtasks, filtered by project status, assignee and status",
      description: 'A user id in assigned_to that is not of the company answers 404.',
      querystring: subtaskListQuery.safeExtend(exportFormatParam),
      response: { ...listResponses, 404: errorResponse },
    },
    handler: async (request, reply) =>
      sendListAs(request, reply, async () => sendPage(reply, await listSubtasks(request.ctx, request.query)), () => subtaskListExport(request.ctx, request.query)),
  });

  app.post('/api/subtasks/', {
    ...guardedBy(requireRole(...PERMISSIONS['subtasks:create'])),
    schema: { tags, security, summary: 'Create a subtask under a major task', body: createSubtaskInput, response: { 201: subtaskSchema, ...refusals } },
    handler: async (request, reply) => reply.code(201).send(await createSubtask(request.ctx, request.body)),
  });

  app.get('/api/subtasks/:id/', {
    schema: { tags, security, summary: 'One subtask of the company', params: idParams, response: { 200: subtaskSchema, ...refusals } },
    handler: async (request) => getSubtask(request.ctx, request.params.id),
  });

  app.patch('/api/subtasks/:id/', {
    ...guardedBy(async (request) => assertMayChangeSubtask(request.ctx, (request.params as { id?: unknown }).id)),
    schema: {
      tags,
      security,
      summary: 'Send for approval, approve, decline, or edit a subtask',
      description:
        'With `expected_status` and/or `expected_assigned_to_id` (what the caller saw), a subtask in another state answers 409 and changes nothing: a decision is never applied to work someone else decided on meanwhile (decision record 108).',
      params: idParams,
      body: updateSubtaskInput,
      response: { 200: subtaskSchema, ...refusals, 409: errorResponse },
    },
    handler: async (request) => updateSubtask(request.ctx, request.params.id, request.body),
  });

  // The dashboards' lists: the caller's part of the company's work, all of it or a page.
  const dashboardLists = [
    { url: '/api/pending-approvals/', summary: 'Subtasks awaiting approval that the caller decides on (team member: their own)', list: listPendingApprovals, file: pendingApprovalsExport },
    { url: '/api/tasks-due-today/', summary: "Subtasks not completed and due today where the caller is (their time zone, else the company's)", list: listTasksDueToday, file: tasksDueTodayExport },
  ];
  for (const { url, summary, list, file } of dashboardLists) {
    app.get(url, {
      schema: { tags, security, summary, querystring: taskListQuery.safeExtend(exportFormatParam), response: listResponses },
      handler: async (request, reply) => sendListAs(request, reply, async () => sendPage(reply, await list(request.ctx, request.query)), () => file(request.ctx)),
    });
  }
};
