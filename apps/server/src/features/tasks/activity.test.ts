import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { COMPLETED_PROJECT_READ_ONLY, NOT_A_SUBTASK_PARTY, translateMessage, type ActivityEntry, type NotificationRecord } from '@siteboard/shared';
import { subtaskActivity, subtaskAttachments } from '../../schema/activity';
import { notifications } from '../../schema/notifications';
import { IMAGES_BUSY, IMAGE_TOO_LARGE, NOT_AN_IMAGE, UNREADABLE_IMAGE, imageQueue } from '../../lib/images';
import { KEY_REUSED, MULTIPART_INVALID, REPLAYED_HEADER } from '../../platform';
import { describeEachDatabase, type TestContext } from '../../test/build-app';
import { createUser } from '../../test/factories';
import { callAs, createTeamAndRival, insertWork, type Caller, type Team } from '../../test/work-factories';
import { whileStatementRuns } from '../../test/uncommitted';
import { subtasks } from '../../schema/tasks';
import { ONE_PHOTO_PER_REQUEST, PHOTO_FIELD_MISSING, PHOTO_TOO_LARGE } from '../../lib/uploads';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures');

/** A JPEG as a phone writes it: turned by EXIF (orientation 6: stored landscape, shown portrait) and carrying camera and GPS tags. */
const phoneJpeg = () =>
  sharp({ create: { width: 60, height: 40, channels: 3, background: '#c05020' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({ IFD0: { Make: 'PhoneCo' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
    .toBuffer();

const bigPng = () => sharp({ create: { width: 1200, height: 900, channels: 4, background: { r: 10, g: 120, b: 200, alpha: 0.5 } } }).png().toBuffer();

/** A 12 KB-class PNG whose header claims 10,000 × 10,000 pixels: decoding it took 7 s of CPU when 100 million were allowed. */
function decompressionBomb(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(10_000, 0);
  header.writeUInt32BE(10_000, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(Buffer.alloc(1000))), chunk('IEND', Buffer.alloc(0))]);
}

async function multipart(files: { bytes: Buffer; filename: string; type?: string; field?: string }[]) {
  const form = new FormData();
  for (const file of files) form.append(file.field ?? 'file', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }), file.filename);
  const encoded = new Response(form);
  return { payload: Buffer.from(await encoded.arrayBuffer()), headers: { 'content-type': encoded.headers.get('content-type')! } };
}

async function upload(ctx: TestContext, caller: Caller, subtaskId: number, files: Parameters<typeof multipart>[0]) {
  return callAs(ctx.app, caller, { method: 'POST', url: `/api/subtasks/${subtaskId}/attachments/`, ...(await multipart(files)) });
}

const patch = (ctx: TestContext, caller: Caller, id: number, payload: object) => callAs(ctx.app, caller, { method: 'PATCH', url: `/api/subtasks/${id}/`, payload });
const comment = (ctx: TestContext, caller: Caller, id: number, text: unknown) => callAs(ctx.app, caller, { method: 'POST', url: `/api/subtasks/${id}/comments/`, payload: { text } });
const activityOf = async (ctx: TestContext, caller: Caller, id: number) => {
  const response = await callAs(ctx.app, caller, { method: 'GET', url: `/api/subtasks/${id}/activity/` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as ActivityEntry[];
};
const countRows = async (ctx: TestContext, subtaskId: number) => {
  const [attachments] = await ctx.app.db.select({ n: sql<number>`count(*)::int` }).from(subtaskAttachments).where(eq(subtaskAttachments.subtaskId, subtaskId));
  const [entries] = await ctx.app.db.select({ n: sql<number>`count(*)::int` }).from(subtaskActivity).where(and(eq(subtaskActivity.subtaskId, subtaskId), eq(subtaskActivity.type, 'attachment')));
  return { attachments: attachments!.n, entries: entries!.n };
};

/** Uploads are streamed to temporary files: this file's go to a folder of their own, which must be empty after every answer. */
const uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-activity-test-'));
const expectNoUploadsLeft = () => vi.waitFor(() => expect(fs.readdirSync(uploadsDir)).toEqual([]));
/** The files of that folder this process still holds open: a removed file's disk space is freed only once none does. */
const openUploadFiles = () =>
  fs
    .readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return fs.readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    })
    .filter((target) => target.startsWith(uploadsDir));
const expectNoUploadsOpen = () => vi.waitFor(() => expect(openUploadFiles()).toEqual([]), { timeout: 10_000 });
afterAll(() => fs.rmSync(uploadsDir, { recursive: true, force: true }));

describeEachDatabase('the subtask as the record of the work', (ctx) => {
  let team: Team, rival: Team;
  let tmpdir: string | undefined;
  beforeAll(async () => {
    [team, rival] = await createTeamAndRival(ctx.app);
    tmpdir = process.env.TMPDIR;
    process.env.TMPDIR = uploadsDir;
  });
  afterAll(() => {
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
  });

  describe('history', () => {
    it('records creation, edits with old and new values, and every status change with who, when and what was said, oldest first', async () => {
      const created = await callAs(ctx.app, team.member, {
        method: 'POST',
        url: '/api/subtasks/',
        payload: { major_task: (await insertWork(ctx.app.db, team)).majorTaskId, name: 'Pour footing B', assigned_to_id: team.member.id, due_date: '2030-05-01', priority: 'medium' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().id as number;

      // The assignee sends for approval with a note; the project's manager declines with a reason, then approves.
      expect((await patch(ctx, team.member, id, { status: 'pending_approval', comment: 'Both sides poured, photos attached' })).statusCode).toBe(200);
      expect((await patch(ctx, team.manager, id, { status: 'ongoing', comment: 'Rebar spacing wrong at grid C' })).statusCode).toBe(200);
      expect((await patch(ctx, team.member, id, { status: 'pending_approval' })).statusCode).toBe(200);
      expect((await patch(ctx, team.manager, id, { status: 'completed' })).statusCode).toBe(200);

      const entries = await activityOf(ctx, team.otherMember, id);
      expect(entries.map((entry) => [entry.type, entry.from, entry.to, entry.comment, entry.actor?.id])).toEqual([
        ['created', undefined, undefined, undefined, team.member.id],
        ['status_changed', 'ongoing', 'pending_approval', 'Both sides poured, photos attached', team.member.id],
        ['status_changed', 'pending_approval', 'ongoing', 'Rebar spacing wrong at grid C', team.manager.id],
        ['status_changed', 'ongoing', 'pending_approval', null, team.member.id],
        ['status_changed', 'pending_approval', 'completed', null, team.manager.id],
      ]);
      expect(entries.map((entry) => entry.id)).toEqual([...entries.map((entry) => entry.id)].sort((a, b) => a - b));
      expect(entries.every((entry) => !Number.isNaN(Date.parse(entry.created_at)))).toBe(true);
    });

    it("records an approver's edit field by field, the assignee as a person", async () => {
      const work = await insertWork(ctx.app.db, team);
      expect((await patch(ctx, team.manager, work.subtaskId, { name: 'Renamed', priority: 'high', due_date: '2030-01-02', assigned_to_id: team.otherMember.id, description: 'x' })).statusCode).toBe(200);
      const [edit] = (await activityOf(ctx, team.member, work.subtaskId)).filter((entry) => entry.type === 'edited');
      expect(edit!.changes).toEqual({
        name: { from: expect.any(String), to: 'Renamed' },
        description: { from: '', to: 'x' },
        priority: { from: 'medium', to: 'high' },
        due_date: { from: '2026-06-30', to: '2030-01-02' },
        assigned_to: { from: { id: team.member.id, email: team.member.email, full_name: null }, to: { id: team.otherMember.id, email: team.otherMember.email, full_name: null } },
      });
    });

    it('names the assignees of past reassignments as they are called now, also once they have left', async () => {
      const ana = await createUser(ctx.app.db, team.company.id, 'team_member', { managerId: team.manager.id });
      const ben = await createUser(ctx.app.db, team.company.id, 'team_member', { managerId: team.manager.id, fullName: 'Ben Old' });
      const rename = async (id: number, fullName: string) => expect((await callAs(ctx.app, team.admin, { method: 'PATCH', url: `/api/users/${id}/`, payload: { full_name: fullName } })).statusCode).toBe(200);
      const work = await insertWork(ctx.app.db, team);
      // Handed to Ana by an edit, then renamed; Ana leaves and her open work goes to Ben, who is renamed after.
      expect((await patch(ctx, team.manager, work.subtaskId, { assigned_to_id: ana.id })).statusCode).toBe(200);
      await rename(ana.id, 'Ana Renamed');
      expect((await callAs(ctx.app, team.admin, { method: 'DELETE', url: `/api/users/${ana.id}/?reassign_to=${ben.id}` })).statusCode).toBe(204);
      await rename(ben.id, 'Ben Renamed');

      const moves = (await activityOf(ctx, team.member, work.subtaskId)).filter((entry) => entry.type === 'edited').map((entry) => entry.changes?.assigned_to);
      expect(moves).toEqual([
        { from: { id: team.member.id, email: team.member.email, full_name: null }, to: { id: ana.id, email: ana.email, full_name: 'Ana Renamed' } },
        { from: { id: ana.id, email: ana.email, full_name: 'Ana Renamed' }, to: { id: ben.id, email: ben.email, full_name: 'Ben Renamed' } },
      ]);
    });

    it("still accepts the spec's decline without a reason, and records it without one", async () => {
      const work = await insertWork(ctx.app.db, team, { status: 'pending_approval' });
      const declined = await patch(ctx, team.manager, work.subtaskId, { status: 'ongoing' });
      expect(declined.statusCode).toBe(200);
      expect(declined.json().status).toBe('ongoing');
      const [entry] = (await activityOf(ctx, team.manager, work.subtaskId)).filter((item) => item.type === 'status_changed');
      expect(entry).toMatchObject({ from: 'pending_approval', to: 'ongoing', comment: null });
    });

    it("sends the decline's reason in the task_declined notification, written with the change", async () => {
      const work = await insertWork(ctx.app.db, team, { status: 'pending_approval' });
      expect((await patch(ctx, team.manager, work.subtaskId, { status: 'ongoing', comment: 'rebar spacing wrong at grid C' })).statusCode).toBe(200);
      const records = (await callAs(ctx.app, team.member, { method: 'GET', url: '/api/notifications/' })).json() as NotificationRecord[];
      const declined = records.find((record) => record.subtask_id === work.subtaskId && record.notification.type === 'task_declined');
      expect(declined!.notification.message).toMatch(/declined '.+' \(.+\): rebar spacing wrong at grid C$/);
    });

    it('writes nothing when the change is refused: no history, no notification', async () => {
      const work = await insertWork(ctx.app.db, team, { status: 'pending_approval' });
      const before = (await activityOf(ctx, team.manager, work.subtaskId)).length;
      expect((await patch(ctx, team.otherMember, work.subtaskId, { status: 'ongoing', comment: 'not mine to decline' })).statusCode).toBe(403);
      expect((await patch(ctx, team.manager, work.subtaskId, { status: 'ongoing', comment: 'x'.repeat(2001) })).statusCode).toBe(400);
      expect(await activityOf(ctx, team.manager, work.subtaskId)).toHaveLength(before);
      const written = await ctx.app.db.select({ id: notifications.id }).from(notifications).where(eq(notifications.subtaskId, work.subtaskId));
      expect(written).toHaveLength(0);
    });

    it('shows the reason next to a declined subtask while it is ongoing again, and the note it is sent again with, in lists and on its own', async () => {
      const work = await insertWork(ctx.app.db, team, { status: 'pending_approval' });
      expect((await patch(ctx, team.manager, work.subtaskId, { status: 'ongoing', comment: 'Formwork not plumb' })).statusCode).toBe(200);
      const one = await callAs(ctx.app, team.member, { method: 'GET', url: `/api/subtasks/${work.subtaskId}/` });
      expect(one.statusCode).toBe(200);
      expect(one.json()).toMatchObject({ id: work.subtaskId, status: 'ongoing', decline_reason: 'Formwork not plumb' });
      const mine = (await callAs(ctx.app, team.member, { method: 'GET', url: '/api/subtasks/?assigned_to=me&limit=100' })).json() as { id: number; decline_reason: string | null }[];
      expect(mine.find((subtask) => subtask.id === work.subtaskId)?.decline_reason).toBe('Formwork not plumb');
      // Sent again, the old reason no longer stands beside it; the note it was sent with does, for the approver.
      const sent = (await patch(ctx, team.member, work.subtaskId, { status: 'pending_approval', comment: 'Re-plumbed and braced' })).json();
      expect(sent).toMatchObject({ decline_reason: null, submission_note: 'Re-plumbed and braced' });
      const waiting = (await callAs(ctx.app, team.manager, { method: 'GET', url: '/api/subtasks/?status=pending_approval&limit=100' })).json() as { id: number; submission_note: string | null }[];
      expect(waiting.find((subtask) => subtask.id === work.subtaskId)?.submission_note).toBe('Re-plumbed and braced');
      // Approved, it waits for nothing: no note beside it.
      expect((await patch(ctx, team.manager, work.subtaskId, { status: 'completed' })).json().submission_note).toBeNull();
      expect((await callAs(ctx.app, rival.admin, { method: 'GET', url: `/api/subtasks/${work.subtaskId}/` })).statusCode).toBe(404);
    });

    it("answers 404 for another company's subtask and 401 without a token", async () => {
      const theirs = await insertWork(ctx.app.db, rival);
      expect((await callAs(ctx.app, team.admin, { method: 'GET', url: `/api/subtasks/${theirs.subtaskId}/activity/` })).statusCode).toBe(404);
      expect((await ctx.app.inject({ method: 'GET', url: `/api/subtasks/${theirs.subtaskId}/activity/` })).statusCode).toBe(401);
    });
  });

  describe('comments', () => {
    it("lets the subtask's parties comment and tells the others (task_comment), never the commenter", async () => {
      const work = await insertWork(ctx.app.db, team);
      const response = await comment(ctx, team.member, work.subtaskId, '  Concrete truck is late  ');
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toMatchObject({ type: 'comment', text: 'Concrete truck is late', actor: { id: team.member.id, email: team.member.email, full_name: null } });

      const toManager = ((await callAs(ctx.app, team.manager, { method: 'GET', url: '/api/notifications/' })).json() as NotificationRecord[]).filter((record) => record.subtask_id === work.subtaskId);
      expect(toManager.map((record) => record.notification.type)).toEqual(['task_comment']);
      expect(toManager[0]!.notification.message).toContain('Concrete truck is late');
      const toMember = ((await callAs(ctx.app, team.member, { method: 'GET', url: '/api/notifications/' })).json() as NotificationRecord[]).filter((record) => record.subtask_id === work.subtaskId);
      expect(toMember).toEqual([]);

      expect((await comment(ctx, team.admin, work.subtaskId, 'Checked by the office')).statusCode).toBe(201);
      expect((await activityOf(ctx, team.member, work.subtaskId)).filter((entry) => entry.type === 'comment').map((entry) => entry.text)).toEqual(['Concrete truck is late', 'Checked by the office']);
    });

    it('refuses anyone else, a completed project, and bad text, writing nothing', async () => {
      const work = await insertWork(ctx.app.db, team);
      const refused = await comment(ctx, team.otherMember, work.subtaskId, 'Not my task');
      expect(refused.statusCode).toBe(403);
      expect(refused.json().detail).toBe(NOT_A_SUBTASK_PARTY);
      expect((await comment(ctx, team.otherManager, work.subtaskId, 'Not my project')).statusCode).toBe(403);
      expect((await comment(ctx, rival.admin, work.subtaskId, 'Another company')).statusCode).toBe(404);
      for (const text of ['', '   ', 'x'.repeat(2001), 42, null]) expect((await comment(ctx, team.member, work.subtaskId, text)).statusCode, String(text)).toBe(400);

      const done = await insertWork(ctx.app.db, team, { projectStatus: 'completed' });
      const closed = await comment(ctx, team.member, done.subtaskId, 'Too late');
      expect(closed.statusCode).toBe(400);
      expect(closed.json().detail).toBe(COMPLETED_PROJECT_READ_ONLY);
      expect((await activityOf(ctx, team.member, work.subtaskId)).filter((entry) => entry.type === 'comment')).toEqual([]);
    });

    it('answers a comment made just before its subtask went with what was saved, not an empty 201 (both databases)', async () => {
      const work = await insertWork(ctx.app.db, team);
      const answer = await whileStatementRuns(
        ctx.queries,
        /^insert into "subtask_activity"/,
        () => ctx.app.db.delete(subtasks).where(eq(subtasks.id, work.subtaskId)),
        () => comment(ctx, team.member, work.subtaskId, 'Formwork struck'),
      );
      expect(answer.statusCode, answer.body).toBe(201);
      expect(answer.json()).toMatchObject({ type: 'comment', text: 'Formwork struck', actor: { id: team.member.id } });
    });

    it('checks who asks before what they send: an outsider posting nonsense gets 403', async () => {
      const work = await insertWork(ctx.app.db, team);
      expect((await comment(ctx, team.otherMember, work.subtaskId, 42)).statusCode).toBe(403);
    });
  });

  describe('photos', () => {
    it('re-encodes a phone photo upright without its metadata, with a thumbnail, both readable with the token only', async () => {
      const work = await insertWork(ctx.app.db, team);
      const response = await upload(ctx, team.member, work.subtaskId, [{ bytes: await phoneJpeg(), filename: 'IMG_0001.JPG', type: 'image/jpeg' }]);
      expect(response.statusCode, response.body).toBe(201);
      const photo = response.json();
      // Orientation 6 applied: the stored 60 × 40 picture is shown 40 × 60.
      expect(photo).toMatchObject({ content_type: 'image/jpeg', width: 40, height: 60, url: `/api/attachments/${photo.id}/`, thumbnail_url: `/api/attachments/${photo.id}/thumbnail/` });

      const image = await callAs(ctx.app, team.otherMember, { method: 'GET', url: photo.url });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/jpeg');
      expect(image.rawPayload.length).toBe(photo.size);
      const metadata = await sharp(image.rawPayload).metadata();
      expect([metadata.width, metadata.height, metadata.exif, metadata.orientation]).toEqual([40, 60, undefined, undefined]);
      expect(image.rawPayload.toString('latin1')).not.toContain('PhoneCo');

      const thumbnail = await callAs(ctx.app, team.manager, { method: 'GET', url: photo.thumbnail_url });
      expect(thumbnail.statusCode).toBe(200);
      expect((await sharp(thumbnail.rawPayload).metadata()).format).toBe('jpeg');

      expect((await ctx.app.inject({ method: 'GET', url: photo.url })).statusCode).toBe(401);
      expect((await callAs(ctx.app, rival.admin, { method: 'GET', url: photo.url })).statusCode).toBe(404);
      expect((await callAs(ctx.app, rival.admin, { method: 'GET', url: photo.thumbnail_url })).statusCode).toBe(404);

      const [entry] = (await activityOf(ctx, team.manager, work.subtaskId)).filter((item) => item.type === 'attachment');
      expect(entry).toMatchObject({ actor: { id: team.member.id }, attachment: photo });
    });

    it('takes PNG, WebP and HEIC, judged by their bytes, and shrinks the thumbnail to 400 px', async () => {
      const work = await insertWork(ctx.app.db, team);
      const png = await upload(ctx, team.manager, work.subtaskId, [{ bytes: await bigPng(), filename: 'plan.bin' }]);
      expect(png.statusCode, png.body).toBe(201);
      expect(png.json()).toMatchObject({ content_type: 'image/png', width: 1200, height: 900 });
      const thumbnail = await sharp((await callAs(ctx.app, team.manager, { method: 'GET', url: png.json().thumbnail_url })).rawPayload).metadata();
      expect([thumbnail.width, thumbnail.height]).toEqual([400, 300]);

      const webp = await upload(ctx, team.manager, work.subtaskId, [{ bytes: await sharp(await bigPng()).webp().toBuffer(), filename: 'x.png', type: 'image/png' }]);
      expect(webp.json()).toMatchObject({ content_type: 'image/webp', width: 1200 });

      const heic = await upload(ctx, team.member, work.subtaskId, [{ bytes: fs.readFileSync(path.join(fixtures, 'photo-64x48.heic')), filename: 'IMG_0002.HEIC', type: 'image/heic' }]);
      expect(heic.statusCode, heic.body).toBe(201);
      expect(heic.json()).toMatchObject({ content_type: 'image/jpeg', width: 64, height: 48 });
      expect((await sharp((await callAs(ctx.app, team.member, { method: 'GET', url: heic.json().url })).rawPayload).metadata()).format).toBe('jpeg');
    });

    it('refuses what is not a whole image of an accepted kind with a clear 4xx, storing nothing', async () => {
      const work = await insertWork(ctx.app.db, team);
      const jpeg = await phoneJpeg();
      const cases: [string, Parameters<typeof multipart>[0], number, string][] = [
        ['a text file named .jpg', [{ bytes: Buffer.from('just some notes, not a photo'), filename: 'notes.jpg', type: 'image/jpeg' }], 400, NOT_AN_IMAGE],
        ['zero bytes', [{ bytes: Buffer.alloc(0), filename: 'empty.jpg', type: 'image/jpeg' }], 400, PHOTO_FIELD_MISSING],
        ['a truncated JPEG', [{ bytes: jpeg.subarray(0, Math.floor(jpeg.length / 2)), filename: 'cut.jpg', type: 'image/jpeg' }], 400, UNREADABLE_IMAGE],
        ['a GIF', [{ bytes: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), filename: 'a.gif', type: 'image/gif' }], 400, NOT_AN_IMAGE],
        ['a decompression bomb', [{ bytes: decompressionBomb(), filename: 'bomb.png', type: 'image/png' }], 413, IMAGE_TOO_LARGE],
        ['a file over 10 MB', [{ bytes: Buffer.concat([jpeg, Buffer.alloc(10 * 1024 * 1024)]), filename: 'huge.jpg', type: 'image/jpeg' }], 413, PHOTO_TOO_LARGE],
        ['two photos at once', [{ bytes: jpeg, filename: 'a.jpg' }, { bytes: jpeg, filename: 'b.jpg' }], 413, ONE_PHOTO_PER_REQUEST],
        ['the photo in another field', [{ bytes: jpeg, filename: 'a.jpg', field: 'photo' }], 400, PHOTO_FIELD_MISSING],
      ];
      for (const [label, files, status, detail] of cases) {
        const response = await upload(ctx, team.member, work.subtaskId, files);
        expect(response.statusCode, label).toBe(status);
        expect(response.json().detail, label).toBe(detail);
      }
      const fifty = await upload(ctx, team.member, work.subtaskId, Array.from({ length: 50 }, (_, index) => ({ bytes: jpeg, filename: `${index}.jpg` })));
      expect(fifty.statusCode).toBe(413);
      const json = await callAs(ctx.app, team.member, { method: 'POST', url: `/api/subtasks/${work.subtaskId}/attachments/`, payload: { file: 'x' } });
      expect(json.statusCode).toBe(400);
      expect(await countRows(ctx, work.subtaskId)).toEqual({ attachments: 0, entries: 0 });
      // The server is unharmed: the next good photo goes in.
      expect((await upload(ctx, team.member, work.subtaskId, [{ bytes: jpeg, filename: 'ok.jpg' }])).statusCode).toBe(201);
    });

    it("lists a page of subtasks' photos in one call, never another company's", async () => {
      const mine = await insertWork(ctx.app.db, team);
      const theirs = await insertWork(ctx.app.db, rival);
      const jpeg = await phoneJpeg();
      const first = (await upload(ctx, team.member, mine.subtaskId, [{ bytes: jpeg, filename: 'a.jpg' }])).json();
      const second = (await upload(ctx, team.member, mine.subtaskId, [{ bytes: jpeg, filename: 'b.jpg' }])).json();
      expect((await upload(ctx, rival.member, theirs.subtaskId, [{ bytes: jpeg, filename: 'c.jpg' }])).statusCode).toBe(201);

      const listed = await callAs(ctx.app, team.otherMember, { method: 'GET', url: `/api/attachments/?subtask_ids=${mine.subtaskId},${theirs.subtaskId}` });
      expect(listed.statusCode).toBe(200);
      expect(listed.json()).toEqual([
        { ...first, subtask_id: mine.subtaskId },
        { ...second, subtask_id: mine.subtaskId },
      ]);
      for (const query of ['', 'subtask_ids=', 'subtask_ids=0x1', 'subtask_ids=1,,2', `subtask_ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`]) {
        expect((await callAs(ctx.app, team.member, { method: 'GET', url: `/api/attachments/?${query}` })).statusCode, query).toBe(400);
      }
    });

    it('asks who is uploading before reading the upload: outsiders 403, other companies 404, completed projects 400', async () => {
      const work = await insertWork(ctx.app.db, team);
      const jpeg = await phoneJpeg();
      expect((await upload(ctx, team.otherMember, work.subtaskId, [{ bytes: Buffer.from('not even an image'), filename: 'x.jpg' }])).statusCode).toBe(403);
      expect((await upload(ctx, rival.admin, work.subtaskId, [{ bytes: jpeg, filename: 'x.jpg' }])).statusCode).toBe(404);
      const done = await insertWork(ctx.app.db, team, { projectStatus: 'completed' });
      const closed = await upload(ctx, team.member, done.subtaskId, [{ bytes: jpeg, filename: 'x.jpg' }]);
      expect(closed.statusCode).toBe(400);
      expect(closed.json().detail).toBe(COMPLETED_PROJECT_READ_ONLY);
      expect(await countRows(ctx, work.subtaskId)).toEqual({ attachments: 0, entries: 0 });
      expect(await countRows(ctx, done.subtaskId)).toEqual({ attachments: 0, entries: 0 });
    });

    it('leaves no row behind when an upload is cut off mid-way', async () => {
      const work = await insertWork(ctx.app.db, team);
      const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = new URL(address);
      const { payload, headers } = await multipart([{ bytes: Buffer.concat([await phoneJpeg(), Buffer.alloc(2 * 1024 * 1024)]), filename: 'big.jpg' }]);
      await new Promise<void>((resolve) => {
        const socket = net.connect(Number(port), '127.0.0.1', () => {
          socket.write(
            `POST /api/subtasks/${work.subtaskId}/attachments/ HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${team.member.access}\r\nContent-Type: ${headers['content-type']}\r\nContent-Length: ${payload.length}\r\n\r\n`,
          );
          socket.write(payload.subarray(0, Math.floor(payload.length / 3)), () => setImmediate(() => socket.destroy()));
        });
        socket.on('close', () => resolve());
      });
      // The server is still answering, and has stored nothing of the cut upload, not even on disk.
      expect((await callAs(ctx.app, team.member, { method: 'GET', url: `/api/subtasks/${work.subtaskId}/activity/` })).statusCode).toBe(200);
      expect(await countRows(ctx, work.subtaskId)).toEqual({ attachments: 0, entries: 0 });
      await expectNoUploadsLeft();
      // Its half-written file is closed too: before, it stayed open (and its disk space taken) until a restart.
      await expectNoUploadsOpen();
    });

    // Before, the half-written file's failure came after the 400 with nothing to handle it: an
    // unhandled rejection, which ends the server process.
    it('refuses a body that ends inside its file (400), and leaves no file open and no failure unhandled', async () => {
      const work = await insertWork(ctx.app.db, team);
      const unhandled: unknown[] = [];
      const record = (reason: unknown) => void unhandled.push(reason);
      process.on('unhandledRejection', record);
      try {
        const boundary = 'cut-off-boundary';
        const payload = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`), await phoneJpeg()]);
        const response = await callAs(ctx.app, team.member, { method: 'POST', url: `/api/subtasks/${work.subtaskId}/attachments/`, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });

        expect(response.statusCode).toBe(400);
        expect(response.json().detail).toBe(MULTIPART_INVALID);
        await expectNoUploadsLeft();
        await expectNoUploadsOpen();
        await new Promise((resolve) => setImmediate(resolve));
        expect(unhandled).toEqual([]);
      } finally {
        process.off('unhandledRejection', record);
      }
    });

    it('keeps a photo at most 2,560 px on its longer side, its thumbnail 400 px', async () => {
      const work = await insertWork(ctx.app.db, team);
      const camera = await sharp({ create: { width: 4032, height: 3024, channels: 3, background: '#506070' } }).jpeg().toBuffer();
      const response = await upload(ctx, team.member, work.subtaskId, [{ bytes: camera, filename: 'IMG_0003.JPG', type: 'image/jpeg' }]);
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toMatchObject({ content_type: 'image/jpeg', width: 2560, height: 1920 });
      const stored = await sharp((await callAs(ctx.app, team.member, { method: 'GET', url: response.json().url })).rawPayload).metadata();
      expect([stored.width, stored.height]).toEqual([2560, 1920]);
      const thumbnail = await sharp((await callAs(ctx.app, team.member, { method: 'GET', url: response.json().thumbnail_url })).rawPayload).metadata();
      expect([thumbnail.width, thumbnail.height]).toEqual([400, 300]);
    });

    it('takes an upload once per Idempotency-Key: the same photo again is the first answer, another photo is refused (422)', async () => {
      const work = await insertWork(ctx.app.db, team);
      const key = `photo-${work.subtaskId}`;
      const withHeaders = async (bytes: Buffer) => {
        const form = await multipart([{ bytes, filename: 'proof.jpg', type: 'image/jpeg' }]);
        return callAs(ctx.app, team.member, { method: 'POST', url: `/api/subtasks/${work.subtaskId}/attachments/`, payload: form.payload, headers: { ...form.headers, 'idempotency-key': key } });
      };
      const first = await withHeaders(await phoneJpeg());
      expect(first.statusCode, first.body).toBe(201);
      // The same photo in a form built again (a new boundary): the first answer, nothing added.
      const again = await withHeaders(await phoneJpeg());
      expect(again.statusCode).toBe(201);
      expect(again.headers[REPLAYED_HEADER]).toBe('true');
      expect(again.json()).toEqual(first.json());
      const other = await withHeaders(await sharp({ create: { width: 50, height: 50, channels: 3, background: '#101010' } }).jpeg().toBuffer());
      expect(other.statusCode).toBe(422);
      expect(other.json().detail).toBe(KEY_REUSED);
      expect(await countRows(ctx, work.subtaskId)).toEqual({ attachments: 1, entries: 1 });
      await expectNoUploadsLeft();
    });

    it("answers 503 with Retry-After, in the reader's language, while the image queue is full, and takes photos again when it has room", async () => {
      const work = await insertWork(ctx.app.db, team);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      // Other photos fill every place and every seat in the queue.
      const others: Promise<void>[] = [];
      while (!imageQueue.full) others.push(imageQueue.run(() => gate));
      const busy = await upload(ctx, team.member, work.subtaskId, [{ bytes: await phoneJpeg(), filename: 'a.jpg' }]);
      await callAs(ctx.app, team.member, { method: 'PATCH', url: '/api/profile/', payload: { language: 'de' } });
      const german = await upload(ctx, team.member, work.subtaskId, [{ bytes: await phoneJpeg(), filename: 'a.jpg' }]);
      await callAs(ctx.app, team.member, { method: 'PATCH', url: '/api/profile/', payload: { language: 'en' } });
      release();
      await Promise.all(others);
      expect(busy.statusCode).toBe(503);
      expect(busy.json().detail).toBe(IMAGES_BUSY);
      expect(Number(busy.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(german.statusCode).toBe(503);
      expect(german.json().detail).toBe(translateMessage(IMAGES_BUSY, 'de'));
      expect(german.headers['retry-after']).toBeDefined();
      expect(await countRows(ctx, work.subtaskId)).toEqual({ attachments: 0, entries: 0 });
      expect((await upload(ctx, team.member, work.subtaskId, [{ bytes: await phoneJpeg(), filename: 'ok.jpg' }])).statusCode).toBe(201);
      await expectNoUploadsLeft();
    });

    it("refuses an outsider's upload before reading it: 403 or 404, not 413, nothing written", async () => {
      const work = await insertWork(ctx.app.db, team);
      const theirs = await insertWork(ctx.app.db, rival);
      const { headers, payload } = await multipart([{ bytes: Buffer.concat([await phoneJpeg(), Buffer.alloc(11 * 1024 * 1024)]), filename: 'huge.jpg', type: 'image/jpeg' }]);
      for (const [caller, subtaskId, status] of [
        [team.otherMember, work.subtaskId, 403],
        [team.member, theirs.subtaskId, 404],
        [team.member, 2147483647, 404],
      ] as const) {
        // The body is handed over a megabyte at a time, only as the server asks for it.
        let sent = 0;
        const body = Readable.from((function* () {
          for (let at = 0; at < payload.length; at += 1024 * 1024) {
            sent = at;
            yield payload.subarray(at, at + 1024 * 1024);
          }
        })());
        const response = await callAs(ctx.app, caller, { method: 'POST', url: `/api/subtasks/${subtaskId}/attachments/`, headers, payload: body });
        expect(response.statusCode, response.body).toBe(status);
        expect(sent, 'bytes read before the refusal').toBeLessThan(payload.length / 2);
      }
      expect(await countRows(ctx, work.subtaskId)).toEqual({ attachments: 0, entries: 0 });
      await expectNoUploadsLeft();
    });

    it('removes every uploaded file once answered, whatever the answer', async () => {
      const work = await insertWork(ctx.app.db, team);
      const jpeg = await phoneJpeg();
      const answers = [
        await upload(ctx, team.member, work.subtaskId, [{ bytes: jpeg, filename: 'stored.jpg' }]),
        await upload(ctx, team.member, work.subtaskId, [{ bytes: Buffer.from('not a photo'), filename: 'notes.jpg' }]),
        await upload(ctx, team.member, work.subtaskId, [{ bytes: Buffer.concat([jpeg, Buffer.alloc(10 * 1024 * 1024)]), filename: 'huge.jpg' }]),
        await upload(ctx, team.member, work.subtaskId, [{ bytes: jpeg, filename: 'a.jpg' }, { bytes: jpeg, filename: 'b.jpg' }]),
        await upload(ctx, team.otherMember, work.subtaskId, [{ bytes: jpeg, filename: 'outsider.jpg' }]),
      ];
      expect(answers.map((answer) => answer.statusCode)).toEqual([201, 400, 413, 413, 403]);
      await expectNoUploadsLeft();
    });
  });

  describe('work done offline keeps its time (decision record 109)', () => {
    const HOUR = 60 * 60 * 1000;
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * HOUR).toISOString();
    const doneAt = (at: string, key?: string) => ({ 'x-done-at': at, ...(key ? { 'idempotency-key': key } : {}) });
    const lastEntry = async (id: number) => (await activityOf(ctx, team.manager, id)).at(-1)!;

    it('records a comment, a photo and a send for approval made hours before they synced at the time they were made, their arrival beside it', async () => {
      const work = await insertWork(ctx.app.db, team);
      const [commented, photographed, sent] = [hoursAgo(6.5), hoursAgo(6.4), hoursAgo(6.3)];
      const before = Date.now();
      const posted = await callAs(ctx.app, team.member, { method: 'POST', url: `/api/subtasks/${work.subtaskId}/comments/`, payload: { text: 'Conduit run in the basement' }, headers: doneAt(commented) });
      expect(posted.statusCode, posted.body).toBe(201);
      expect(posted.json()).toMatchObject({ done_at: commented });
      const form = await multipart([{ bytes: await phoneJpeg(), filename: 'conduit.jpg', type: 'image/jpeg' }]);
      expect((await callAs(ctx.app, team.member, { method: 'POST', url: `/api/subtasks/${work.subtaskId}/attachments/`, payload: form.payload, headers: { ...form.headers, ...doneAt(photographed) } })).statusCode).toBe(201);
      expect((await callAs(ctx.app, team.member, { method: 'PATCH', url: `/api/subtasks/${work.subtaskId}/`, payload: { status: 'pending_approval' }, headers: doneAt(sent) })).statusCode).toBe(200);

      const entries = (await activityOf(ctx, team.manager, work.subtaskId)).filter((entry) => entry.type !== 'created');
      expect(entries.map((entry) => [entry.type, entry.done_at])).toEqual([
        ['comment', commented],
        ['attachment', photographed],
        ['status_changed', sent],
      ]);
      // Arrival stays the server's own clock: when it synced, not when it was done.
      for (const entry of entries) expect(Date.parse(entry.created_at)).toBeGreaterThanOrEqual(before - 1000);
    });

    it('keeps the first done time when the same write is sent again with its key', async () => {
      const work = await insertWork(ctx.app.db, team);
      const made = hoursAgo(30);
      const send = (at: string) => callAs(ctx.app, team.member, { method: 'POST', url: `/api/subtasks/${work.subtaskId}/comments/`, payload: { text: 'Sealed the riser' }, headers: doneAt(at, `offline-${work.subtaskId}`) });
      const first = await send(made);
      expect(first.statusCode, first.body).toBe(201);
      const again = await send(made);
      expect(again.headers[REPLAYED_HEADER]).toBe('true');
      expect(again.json()).toEqual(first.json());
      // Even a resend that claims another time acts once: the first answer and the first time stand.
      expect((await send(hoursAgo(1))).json()).toEqual(first.json());
      const comments = (await activityOf(ctx, team.manager, work.subtaskId)).filter((entry) => entry.type === 'comment');
      expect(comments.map((entry) => entry.done_at)).toEqual([made]);
    });

    it('records a subtask created offline, and its status, as made then', async () => {
      const work = await insertWork(ctx.app.db, team);
      const made = hoursAgo(2);
      const created = await callAs(ctx.app, team.member, {
        method: 'POST',
        url: '/api/subtasks/',
        payload: { major_task: work.majorTaskId, name: 'Patch wall C', assigned_to_id: team.member.id, due_date: '2030-05-01', priority: 'medium' },
        headers: doneAt(made),
      });
      expect(created.statusCode, created.body).toBe(201);
      expect((await lastEntry(created.json().id as number)).done_at).toBe(made);
    });

    it('takes the arrival as the done time without the header, and when the time said is implausible, the write itself going through', async () => {
      const work = await insertWork(ctx.app.db, team);
      const cases: [what: string, headers: Record<string, string>][] = [
        ['no header', {}],
        ['ten minutes ahead of the server', doneAt(new Date(Date.now() + 10 * 60 * 1000).toISOString())],
        ['a minute ahead (clock skew: done as it arrived)', doneAt(new Date(Date.now() + 60 * 1000).toISOString())],
        ['eight days old (older than a key is kept)', doneAt(hoursAgo(8 * 24))],
        ['not a time', doneAt('this morning')],
        ['a date without a time', doneAt(new Date().toISOString().slice(0, 10))],
        ['a time without its zone', doneAt(hoursAgo(2).slice(0, 19))],
      ];
      for (const [what, headers] of cases) {
        const posted = await callAs(ctx.app, team.member, { method: 'POST', url: `/api/subtasks/${work.subtaskId}/comments/`, payload: { text: what }, headers });
        expect(posted.statusCode, what).toBe(201);
        const entry = posted.json() as ActivityEntry;
        expect(entry.done_at, what).toBe(entry.created_at);
      }
      // Six days is within the week a key is kept: believed.
      const sixDays = hoursAgo(6 * 24);
      expect((await callAs(ctx.app, team.member, { method: 'POST', url: `/api/subtasks/${work.subtaskId}/comments/`, payload: { text: 'six days' }, headers: doneAt(sixDays) })).json()).toMatchObject({ done_at: sixDays });
    });
  });
});
