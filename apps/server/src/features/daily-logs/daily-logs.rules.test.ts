import { describe, expect, it } from 'vitest';
import {
  localDateTime,
  crewTotals,
  DAILY_LOG_ADMIN_SIGNED_BEFORE_CHANGE,
  DAILY_LOG_ADMIN_SIGNED_BEFORE_ENTRY,
  DAILY_LOG_NOT_SIGNED,
  DAILY_LOG_SIGNED,
  DAILY_LOG_SIGNED_BEFORE_CHANGE,
  DAILY_LOG_SIGNED_BEFORE_ENTRY,
  decideAmendment,
  decideContribution,
  decideLogKeeping,
  decideOwnContributionChange,
  exportRange,
  type DailyLogParties,
} from '@siteboard/shared';
import { manHoursByTradeAndCompany, workKind } from './daily-logs.rules';

const MANAGER = { id: 1, role: 'manager' as const };
const OTHER_MANAGER = { id: 2, role: 'manager' as const };
const MEMBER = { id: 3, role: 'team_member' as const };
const ADMIN = { id: 4, role: 'admin' as const };
const parties = (overrides: Partial<DailyLogParties> = {}): DailyLogParties => ({ projectManagerId: MANAGER.id, projectStatus: 'ongoing', hasWork: false, logStatus: 'draft', ...overrides });

describe('who keeps and adds to a daily log', () => {
  it('lets the project’s manager and admins write and sign an open draft, nobody else', () => {
    expect([MANAGER, ADMIN, OTHER_MANAGER, MEMBER].map((actor) => decideLogKeeping(actor, parties({ hasWork: true })).ok)).toEqual([true, true, false, false]);
    expect(decideLogKeeping(MANAGER, parties({ logStatus: null })).ok).toBe(true);
    expect(decideLogKeeping(MANAGER, parties({ logStatus: 'signed' }))).toEqual({ ok: false, error: 'conflict', message: DAILY_LOG_SIGNED });
    expect(decideLogKeeping(MANAGER, parties({ projectStatus: 'completed', logStatus: 'signed' }))).toMatchObject({ ok: false, error: 'invalid' });
  });

  it('takes amendments on signed logs only', () => {
    expect(decideAmendment(MANAGER, parties({ logStatus: 'signed' })).ok).toBe(true);
    expect(decideAmendment(MANAGER, parties())).toEqual({ ok: false, error: 'conflict', message: DAILY_LOG_NOT_SIGNED });
    expect(decideAmendment(MEMBER, parties({ logStatus: 'signed', hasWork: true }))).toMatchObject({ ok: false, error: 'forbidden' });
  });

  it('lets people with work (and the keepers) add their own, and change only their own, until signed', () => {
    expect([MEMBER, OTHER_MANAGER].map((actor) => decideContribution(actor, parties({ hasWork: true })).ok)).toEqual([true, true]);
    expect([MEMBER, OTHER_MANAGER, MANAGER, ADMIN].map((actor) => decideContribution(actor, parties()).ok)).toEqual([false, false, true, true]);
    expect(decideContribution(MEMBER, parties({ hasWork: true, logStatus: 'signed' }))).toMatchObject({ error: 'conflict' });
    expect(decideOwnContributionChange(MEMBER, MEMBER.id, parties({ hasWork: true })).ok).toBe(true);
    expect(decideOwnContributionChange(ADMIN, MEMBER.id, parties())).toMatchObject({ error: 'forbidden' });
  });

  it('tells the crew who signed: the manager or the admin', () => {
    const signedBy = (signerRole: 'manager' | 'admin') => parties({ hasWork: true, logStatus: 'signed', signerRole });
    expect(decideContribution(MEMBER, signedBy('manager'))).toMatchObject({ message: DAILY_LOG_SIGNED_BEFORE_ENTRY });
    expect(decideContribution(MEMBER, signedBy('admin'))).toMatchObject({ message: DAILY_LOG_ADMIN_SIGNED_BEFORE_ENTRY });
    expect(decideOwnContributionChange(MEMBER, MEMBER.id, signedBy('manager'))).toMatchObject({ message: DAILY_LOG_SIGNED_BEFORE_CHANGE });
    expect(decideOwnContributionChange(MEMBER, MEMBER.id, signedBy('admin'))).toMatchObject({ message: DAILY_LOG_ADMIN_SIGNED_BEFORE_CHANGE });
    expect(decideContribution(MANAGER, signedBy('admin'))).toMatchObject({ message: DAILY_LOG_SIGNED });
  });
});

describe('the day’s numbers', () => {
  it('counts crew rows as head count × hours and each self-logging person once', () => {
    const crew = [
      { trade: 'Carpenters', company: 'A', headcount: 4, hours: 8 },
      { trade: 'Electricians', company: 'B', headcount: 2, hours: 6.25 },
    ];
    expect(crewTotals(crew, [{ authorId: 7, hours: 3 }, { authorId: 7, hours: 4.5 }, { authorId: 8, hours: null }])).toEqual({ headcount: 7, hours: 52 });
  });

  it('sums man-hours by trade and company over days, people under their own trade and company', () => {
    const day = (hours: number) => ({
      crew: [{ trade: 'Concrete', company: 'Beton', headcount: 2, hours }],
      selfLogged: [
        { authorId: 1, trade: 'Carpenter', hours: 3 },
        { authorId: 1, trade: 'Carpenter', hours: 4 },
        { authorId: 2, trade: '', hours: null },
      ],
    });
    expect(manHoursByTradeAndCompany([day(8), day(6.5)], 'Our Co')).toEqual([
      { trade: 'Concrete', company: 'Beton', headcount: 4, manHours: 29 },
      { trade: 'Carpenter', company: 'Our Co', headcount: 2, manHours: 14 },
    ]);
  });

  it('reads status changes and photos as the day’s work, and nothing else', () => {
    const kinds = [
      { type: 'status_changed', fromStatus: 'ongoing', toStatus: 'pending_approval', attachmentId: null },
      { type: 'status_changed', fromStatus: 'pending_approval', toStatus: 'completed', attachmentId: null },
      { type: 'status_changed', fromStatus: 'pending_approval', toStatus: 'ongoing', attachmentId: null },
      { type: 'status_changed', fromStatus: 'ongoing', toStatus: 'completed', attachmentId: null },
      { type: 'status_changed', fromStatus: 'completed', toStatus: 'ongoing', attachmentId: null },
      { type: 'attachment', fromStatus: null, toStatus: null, attachmentId: 5 },
      { type: 'comment', fromStatus: null, toStatus: null, attachmentId: null },
    ] as const;
    expect(kinds.map((row) => workKind(row))).toEqual(['sent_for_approval', 'approved', 'declined', 'completed', null, 'photo', null]);
  });

  it('bounds an export’s days: up to today, start before end, at most the maximum, a month by default', () => {
    expect(exportRange({}, '2026-03-31', 31, 366)).toEqual({ ok: true, from: '2026-03-01', to: '2026-03-31' });
    expect(exportRange({ to: '2026-04-01' }, '2026-03-31', 31, 366)).toMatchObject({ ok: false, field: 'to' });
    expect(exportRange({ from: '2026-03-02', to: '2026-03-01' }, '2026-03-31', 31, 366)).toMatchObject({ ok: false, field: 'from' });
    expect(exportRange({ from: '2026-01-01', to: '2026-03-01' }, '2026-03-31', 31, 31)).toEqual({ ok: false, field: 'from', message: 'A range covers at most 31 days.' });
  });

  it('writes an instant as the wall clock of a zone', () => {
    expect(localDateTime('2026-03-29T00:30:00Z', 'Europe/Berlin')).toBe('2026-03-29 01:30');
    expect(localDateTime('2026-03-29T01:30:00Z', 'Europe/Berlin')).toBe('2026-03-29 03:30');
    expect(localDateTime('2026-03-29T23:30:00Z', 'Pacific/Kiritimati')).toBe('2026-03-30 13:30');
  });
});
