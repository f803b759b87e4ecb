import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PERMISSIONS,
  TOTAL_COUNT_HEADER,
  createProjectInput,
  errorResponse,
  exportFormatParam,
  idParams,
  majorTaskListQuery,
  majorTaskSummarySchema,
  projectListQuery,
  projectQuery,
  projectSchema,
  projectSubtaskListQuery,
  subtaskPageSchema,
  subtaskPagesQuery,
  subtaskSchema,
  taskListQuery,
  updateProjectInput,
} from '@siteboard/shared';
import { jsonOrFiles, sendListAs } from '../../lib/exports';
import { sendPage } from '../../lib/lists';
import { guardedBy, requireRole } from '../../platform';
import { createProject, deleteProject, getProject, listProjectMajorTasks, listProjectOpenWork, listProjects, listProjectSubtaskPages, listProjectSubtasks, projectAndMajorTasksFound, projectFound, projectsExport, updateProject } from './projects.service';

const tags = ['projects'];
const security = [{ bearer: [] }];
const refusals = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

export const projectsRoutes: FastifyPluginAsyncZod = async (app) => {
  const manage = requireRole(...PERMISSIONS['projects:manage']);

  app.get('/api/projects/', {
    schema: {
      tags,
      security,
      summary: "The company's projects; expand=major_tasks embeds their major tasks and subtasks",
      description: `Oldest first, or newest with order=newest. Filter by status and name; page with limit and offset, and the answer carries the number of matching projects in the ${TOTAL_COUNT_HEADER} header. Only the page's projects are expanded.`,
      querystring: projectListQuery.safeExtend(exportFormatParam),
      response: { 200: jsonOrFiles(z.array(projectSchema)), 400: errorResponse, 401: errorResponse },
    },
    handler: async (request, reply) =>
      sendListAs(request, reply, async () => sendPage(reply, await listProjects(request.ctx, request.query)), () => projectsExport(request.ctx, request.query)),
  });

  app.get('/api/projects/:id/', {
    schema: { tags, security, summary: 'One project; expand=major_tasks embeds its major tasks and subtasks', params: idParams, querystring: projectQuery, response: { 200: projectSchema, ...refusals } },
    handler: async (request) => getProject(request.ctx, request.params.id, request.query),
  });

  app.get('/api/projects/:id/open-work/', {
    schema: {
      tags,
      security,
      summary: "The project's unfinished subtasks (ongoing or pending approval): what completing it would close as unfinished",
      description: `Soonest due first, paged with limit and offset; the ${TOTAL_COUNT_HEADER} header says how many.`,
      params: idParams,
      querystring: taskListQuery,
      response: { 200: z.array(subtaskSchema), ...refusals },
    },
    handler: async (request, reply) => sendPage(reply, await listProjectOpenWork(request.ctx, request.params.id, request.query)),
  });

  // Beside `?expand=major_tasks`, which answers a project's whole tree: what a picker or an opened
  // project needs, a page at a time. Every role reads projects; another company's is a 404 before
  // the query is read.
  app.get('/api/projects/:id/major-tasks/', {
    ...guardedBy(projectFound),
    schema: {
      tags,
      security,
      summary: "The project's major tasks without their subtasks, each with its subtasks counted",
      description: `Oldest first; search by name; paged with limit and offset, and the ${TOTAL_COUNT_HEADER} header says how many match.`,
      params: idParams,
      querystring: majorTaskListQuery,
      response: { 200: z.array(majorTaskSummarySchema), ...refusals },
    },
    handler: async (request, reply) => sendPage(reply, await listProjectMajorTasks(request.ctx, request.params.id, request.query)),
  });

  app.get('/api/projects/:id/subtasks/', {
    ...guardedBy(projectAndMajorTasksFound),
    schema: {
      tags,
      security,
      summary: "The project's subtasks, of one major task or on no drawing if asked",
      description: `Soonest due first (work its completion closed unfinished is not listed); search by name; paged with limit and offset, and the ${TOTAL_COUNT_HEADER} header says how many match. A major_task_id not of the project answers 404.`,
      params: idParams,
      querystring: projectSubtaskListQuery,
      response: { 200: z.array(subtaskSchema), ...refusals },
    },
    handler: async (request, reply) => sendPage(reply, await listProjectSubtasks(request.ctx, request.params.id, request.query)),
  });

  app.get('/api/projects/:id/subtask-pages/', {
    ...guardedBy(projectAndMajorTasksFound),
    schema: {
      tags,
      security,
      summary: 'The first page of subtasks of each of several major tasks of the project, each with its total',
      description:
        'What an opened project shows under a page of its major tasks, in one request: for each major task named, in the order named, its first subtasks (soonest due first, as `subtasks/?major_task_id=` pages them) and how many it has; the next pages come from `subtasks/?major_task_id=…&offset=…`. A major task not of the project answers 404.',
      params: idParams,
      querystring: subtaskPagesQuery,
      response: { 200: z.array(subtaskPageSchema), ...refusals },
    },
    handler: async (request) => listProjectSubtaskPages(request.ctx, request.query),
  });

  app.post('/api/projects/', {
    ...guardedBy(manage),
    schema: { tags, security, summary: 'Create a project', body: createProjectInput, response: { 201: projectSchema, ...refusals } },
    handler: async (request, reply) => reply.code(201).send(await createProject(request.ctx, request.body)),
  });

  app.patch('/api/projects/:id/', {
    ...guardedBy(manage, projectFound),
    schema: {
      tags,
      security,
      summary: 'Edit a project',
      description:
        'Completing approves nothing. Completing a project with unfinished subtasks (ongoing or pending approval) answers 409 (its detail says how many; `GET /api/projects/{id}/open-work/` lists them) unless `confirm_open_work` is true; then they keep their status, are closed unfinished (`closed_unfinished_at`, a `closed_unfinished` line in their history) and leave every to-do list and count. Reopening the project reopens them.',
      params: idParams,
      body: updateProjectInput,
      response: { 200: projectSchema, ...refusals, 409: errorResponse },
    },
    handler: async (request) => updateProject(request.ctx, request.params.id, request.body),
  });

  app.delete('/api/projects/:id/', {
    ...guardedBy(manage, projectFound),
    schema: { tags, security, summary: 'Delete a project with its tasks', params: idParams, response: { 204: z.null().describe('Deleted'), ...refusals } },
    handler: async (request, reply) => {
      await deleteProject(request.ctx, request.params.id);
      return reply.code(204).send(null);
    },
  });
};
