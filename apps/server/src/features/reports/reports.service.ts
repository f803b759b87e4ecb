import type { z } from 'zod';
import { APPRAISALS_MAX_LIMIT, appraisalQuery, type AppraisalItem, type AppraisalQuery, type ManagerAppraisalQuery } from '@siteboard/shared';
import { type Guard, type ServiceContext, fieldError, ForbiddenError, NotFoundError } from '../../platform';
import type { ListExport } from '../../lib/exports';
import { keysetBatches, pagedBatches, type Page } from '../../lib/lists';
import { APPRAISAL_CSV_COLUMNS, reportSubtaskCsvColumns } from './reports.csv';
import { APPRAISAL_SHEET_COLUMNS, reportSubtaskSheetColumns } from './reports.xlsx';
import { countAppraisals, listReportSubtaskBatch, listReportSubtasks, type AppraisalRow, type ReportSubtaskRow } from './reports.queries';
import { renderAppraisalPdf } from './reports.pdf';
import { findActiveMember } from '../users/users.queries';
import { ACCESS_DENIED, ADMIN_NOT_APPRAISED, USER_NOT_FOUND, toAppraisalItem, type DateRange } from './reports.rules';

/** The PDF lists at most this many subtasks (the counts always cover them all): a bound on the work one request can cause. */
export const PDF_TABLE_LIMIT = 1000;

function rangeOf(query: { start_date?: string; end_date?: string }): DateRange {
  return { start: query.start_date, end: query.end_date };
}

/** One active manager or team member of the caller's company, counted (its time read in the caller's zone); anyone else is refused. */
async function countOnePerson(ctx: ServiceContext, userId: number, range: DateRange): Promise<AppraisalRow> {
  const [row] = (await countAppraisals(ctx.db, ctx.user.companyId, { userId }, range, {}, { readerId: ctx.user.id })).items;
  if (!row) throw new NotFoundError(USER_NOT_FOUND);
  if (row.role === 'admin') throw fieldError('user_id', ADMIN_NOT_APPRAISED);
  return row;
}

/**
 * Guard of the reports: the person `user_id` names is found before the rest of the query is read,
 * as a path's would be (404 for another company's or none; 403 for a manager naming someone outside
 * their team), so a bad date beside another company's user is not a 400. Asked only when validation
 * would refuse the query (`query`, the route's): a good one finds the person in the report's own
 * statement, so no report runs one more. A `user_id` that names nothing is left to validation.
 */
export const appraiseeFirst =
  (query: z.ZodType): Guard =>
  async (request) => {
    if (query.safeParse(request.query).success) return;
    const userId = appraisalQuery.shape.user_id.safeParse((request.query as Record<string, unknown> | undefined)?.user_id);
    if (!userId.success) return;
    const { companyId, id, role } = request.user;
    const person = await findActiveMember(request.ctx.db, companyId, userId.data);
    if (!person) throw new NotFoundError(USER_NOT_FOUND);
    if (role !== 'admin' && (person.role !== 'team_member' || person.managerId !== id)) throw new ForbiddenError(ACCESS_DENIED);
  };

/** An admin's report on one person: the spec's client reads the first element of a list. */
export async function appraisalReport(ctx: ServiceContext, query: AppraisalQuery): Promise<AppraisalItem[]> {
  return [toAppraisalItem(await countOnePerson(ctx, query.user_id, rangeOf(query)))];
}

/**
 * A manager's report on their own team, or an admin's on every manager and team member of the
 * company; `user_id` narrows it to one person, who for a manager must be in their team.
 */
export async function managerAppraisalReport(ctx: ServiceContext, query: ManagerAppraisalQuery): Promise<Page<AppraisalItem>> {
  const range = rangeOf(query);
  const { companyId, id, role } = ctx.user;
  if (query.user_id === undefined) {
    const scope = role === 'admin' ? { everyone: true as const } : { managerId: id };
    const page = await countAppraisals(ctx.db, companyId, scope, range, query);
    return { items: page.items.map((row) => toAppraisalItem(row)), total: page.total };
  }
  if (role === 'admin') return { items: [toAppraisalItem(await countOnePerson(ctx, query.user_id, range))], total: 1 };

  const [row] = (await countAppraisals(ctx.db, companyId, { userId: query.user_id }, range)).items;
  if (!row) throw new NotFoundError(USER_NOT_FOUND);
  if (row.role !== 'team_member' || row.managerId !== id) throw new ForbiddenError(ACCESS_DENIED);
  return { items: [toAppraisalItem(row)], total: 1 };
}

/** The admin's report on one person as a PDF: two statements, the counts and the subtasks it lists. */
export async function appraisalPdf(ctx: ServiceContext, query: AppraisalQuery): Promise<Buffer> {
  const range = rangeOf(query);
  const person = await countOnePerson(ctx, query.user_id, range);
  const subtasks = await listReportSubtasks(ctx.db, ctx.user.companyId, person.id, range, PDF_TABLE_LIMIT);
  return renderAppraisalPdf({
    companyName: person.companyName,
    generatedAt: person.generatedAt,
    timezone: person.timezone,
    language: ctx.user.language,
    range,
    item: toAppraisalItem(person),
    subtasks,
  });
}

/**
 * The admin's report on one person as a file: the subtasks behind the counts (all of them,
 * which the PDF cuts at PDF_TABLE_LIMIT), read in batches as the file is sent. The person is
 * checked first, as for the report itself.
 */
export async function appraisalReportExport(ctx: ServiceContext, query: AppraisalQuery): Promise<ListExport<ReportSubtaskRow>> {
  const range = rangeOf(query);
  const person = await countOnePerson(ctx, query.user_id, range);
  // One report item for both files: the CSV and the workbook print the same figures.
  const item = toAppraisalItem(person);
  return {
    name: `appraisal-report-${person.code}`,
    title: 'Appraisal Report',
    csv: reportSubtaskCsvColumns(item),
    sheet: reportSubtaskSheetColumns(item),
    batches: keysetBatches((last, size) => listReportSubtaskBatch(ctx.db, ctx.user.companyId, person.id, range, last?.id, size)),
  };
}

/** The team's (or the company's) appraisals as a file: one row per person, as the list has them. */
export function managerAppraisalReportExport(ctx: ServiceContext, query: ManagerAppraisalQuery): ListExport<AppraisalItem> {
  return {
    name: 'team-appraisal',
    title: 'Team Performance',
    csv: APPRAISAL_CSV_COLUMNS,
    sheet: APPRAISAL_SHEET_COLUMNS,
    batches: pagedBatches((page) => managerAppraisalReport(ctx, { ...query, ...page }), APPRAISALS_MAX_LIMIT),
  };
}
