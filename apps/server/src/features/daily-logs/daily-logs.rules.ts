import {
  crewTotals,
  hoursLost,
  type CrewRow,
  type DailyLogContent,
  type SubtaskStatus,
  type WorkItem,
  type WorkKind,
  type WorkNote,
  savedWorkNotes,
} from '@siteboard/shared';

export const LOG_PHOTO_NOT_FOUND = 'Photo not found.';

/** One history entry of a subtask, as the day's work reads it. */
export interface WorkRecordRow {
  activityId: number;
  type: string;
  fromStatus: SubtaskStatus | null;
  toStatus: SubtaskStatus | null;
  text: string | null;
  at: string;
  subtaskId: number;
  subtaskName: string;
  majorTaskId: number;
  majorTaskName: string;
  actorId: number | null;
  actorEmail: string | null;
  actorFullName: string | null;
  attachmentId: number | null;
  contentType: string | null;
  size: number | null;
  width: number | null;
  height: number | null;
}

/**
 * What a history entry means for the day's log: a photo, or a status change that sent a subtask
 * for approval, approved it (from pending approval to completed), declined it (from pending
 * approval back to ongoing) or completed it (straight from ongoing). Anything else (an edit, a
 * reopened subtask) is not the day's work.
 */
export function workKind(row: Pick<WorkRecordRow, 'type' | 'fromStatus' | 'toStatus' | 'attachmentId'>): WorkKind | null {
  if (row.type === 'attachment') return row.attachmentId === null ? null : 'photo';
  if (row.type !== 'status_changed') return null;
  if (row.toStatus === 'pending_approval') return 'sent_for_approval';
  if (row.fromStatus === 'pending_approval' && row.toStatus === 'completed') return 'approved';
  if (row.fromStatus === 'pending_approval' && row.toStatus === 'ongoing') return 'declined';
  if (row.toStatus === 'completed') return 'completed';
  return null;
}

export type WorkNotes = Record<string, Omit<WorkNote, 'activity_id'>>;

/** A history entry as the log shows it, with the manager's note on it (left out, a comment) if any. */
export function toWorkItem(row: WorkRecordRow, notes: WorkNotes): WorkItem {
  const note = notes[String(row.activityId)];
  return {
    activity_id: row.activityId,
    kind: workKind(row)!,
    at: row.at,
    actor: row.actorId === null || row.actorEmail === null ? null : { id: row.actorId, email: row.actorEmail, full_name: row.actorFullName },
    subtask: { id: row.subtaskId, name: row.subtaskName, major_task: { id: row.majorTaskId, name: row.majorTaskName } },
    note: row.type === 'status_changed' ? row.text : null,
    attachment:
      row.attachmentId === null
        ? null
        : {
            id: row.attachmentId,
            content_type: row.contentType!,
            size: row.size!,
            width: row.width!,
            height: row.height!,
            url: `/api/attachments/${row.attachmentId}/`,
            thumbnail_url: `/api/attachments/${row.attachmentId}/thumbnail/`,
          },
    excluded: note?.excluded ?? false,
    manager_comment: note?.comment ?? null,
  };
}

/** The manager's notes as stored: only entries of the day's work, and only those that say something. */
export function workNotesFrom(notes: WorkNote[], dayWork: ReadonlySet<number>): { notes: WorkNotes; unknown: number[] } {
  const unknown = notes.filter((note) => !dayWork.has(note.activity_id)).map((note) => note.activity_id);
  const kept = savedWorkNotes(notes).filter((note) => dayWork.has(note.activity_id));
  return { notes: Object.fromEntries(kept.map((note) => [String(note.activity_id), { excluded: note.excluded, comment: note.comment }])), unknown };
}

/** A day's log content before anyone wrote in it. */
export const EMPTY_CONTENT: DailyLogContent = { weather: null, crew: [], equipment: [], deliveries: [], delays: [], incidents: [], visitors: [], notes: '' };

/** A day's headcount, man-hours and hours lost, as the list, the log, the PDF and the exports give them. */
export function dayTotals(content: Pick<DailyLogContent, 'crew' | 'delays'>, selfLogged: readonly { authorId: number; hours: number | null }[]) {
  const crew = crewTotals(content.crew, selfLogged);
  return { crew_headcount: crew.headcount, crew_hours: crew.hours, hours_lost: hoursLost(content.delays) };
}

export interface TradeTotal {
  trade: string;
  company: string;
  headcount: number;
  manHours: number;
}

/**
 * Man-hours by trade and company over a range: the crew rows as written, and each person's own
 * hours under their designation (their trade) and their own company. Sorted by company, then trade.
 */
export function manHoursByTradeAndCompany(
  days: readonly { crew: readonly CrewRow[]; selfLogged: readonly { authorId: number; trade: string; hours: number | null }[] }[],
  ownCompany: string,
): TradeTotal[] {
  const totals = new Map<string, TradeTotal>();
  const add = (trade: string, company: string, headcount: number, manHours: number) => {
    const key = JSON.stringify([company, trade]);
    const total = totals.get(key) ?? { trade, company, headcount: 0, manHours: 0 };
    total.headcount += headcount;
    total.manHours = Math.round((total.manHours + manHours) * 100) / 100;
    totals.set(key, total);
  };
  for (const day of days) {
    for (const row of day.crew) add(row.trade, row.company, row.headcount, row.headcount * row.hours);
    const people = new Map<number, { trade: string; hours: number }>();
    for (const entry of day.selfLogged) {
      if (!entry.hours) continue;
      const person = people.get(entry.authorId) ?? { trade: entry.trade, hours: 0 };
      person.hours += entry.hours;
      people.set(entry.authorId, person);
    }
    for (const person of people.values()) add(person.trade, ownCompany, 1, person.hours);
  }
  return [...totals.values()].sort((a, b) => a.company.localeCompare(b.company) || a.trade.localeCompare(b.trade));
}

