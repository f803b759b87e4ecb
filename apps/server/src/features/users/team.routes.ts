import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PERMISSIONS, errorResponse, exportFormatParam, teamListQuery, teamMemberSchema, teamWorkloadItemSchema, upsertTeamMemberInput } from '@siteboard/shared';
import { jsonOrFiles, sendListAs } from '../../lib/exports';
import { sendPage } from '../../lib/lists';
import { guardedBy, requireRole } from '../../platform';
import { listTeamMembersFor, listTeamWorkloadFor, teamWorkloadExport, upsertTeamMemberRecord } from './team.service';

const tags = ['team-members'];
const security = [{ bearer: [] }];

export const teamMembersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/team-members/', {
    ...guardedBy(requireRole(...PERMISSIONS['team-members:read'])),
    schema: {
      tags,
      summary: "List team-member records: the company's for an admin, their own team's for a manager",
      security,
      querystring: teamListQuery,
      response: { 200: z.array(teamMemberSchema), 400: errorResponse, 401: errorResponse, 403: errorResponse },
    },
    handler: async (request, reply) => sendPage(reply, await listTeamMembersFor(request.ctx, request.query)),
  });

  app.get('/api/team-workload/', {
    ...guardedBy(requireRole(...PERMISSIONS['team-members:workload'])),
    schema: {
      tags,
      summary: "The manager's team, least loaded first, each with the names of their ongoing subtasks in ongoing or planned projects",
      security,
      querystring: teamListQuery.safeExtend(exportFormatParam),
      response: { 200: jsonOrFiles(z.array(teamWorkloadItemSchema)), 400: errorResponse, 401: errorResponse, 403: errorResponse },
    },
    handler: async (request, reply) => sendListAs(request, reply, async () => sendPage(reply, await listTeamWorkloadFor(request.ctx, request.query)), () => teamWorkloadExport(request.ctx)),
  });

  app.post('/api/team-members/', {
    ...guardedBy(requireRole(...PERMISSIONS['team-members:manage'])),
    schema: {
      tags,
      summary: "Create (201) or update (200) a team member's record: their manager and performance score",
      security,
      body: upsertTeamMemberInput,
      response: { 200: teamMemberSchema, 201: teamMemberSchema, 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse },
    },
    handler: async (request, reply) => {
      const { created, record } = await upsertTeamMemberRecord(request.ctx, request.body);
      return reply.code(created ? 201 : 200).send(record);
    },
  });
};
