import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app';
import { subtaskActivity, subtaskAttachments } from '../../schema/activity';
import { subtasks } from '../../schema/tasks';
import { adminQuery, buildTestApp, createTestDatabase, isPostgresReachable, TEST_JWT_SECRET } from '../../test/build-app';
import { pgliteSnapshotPath } from '../../test/database-templates';
import { accountIds, canMountDisks, mountSmallDisk, type SmallDisk } from '../../test/small-disk';
import { callAs, createTeam, insertWork, type Team } from '../../test/work-factories';
import { openDatabase, type Database } from '../database/client';
import { migrationsHash } from '../database/embedded-template';

// A disk that really fills needs a filesystem of its own: a tmpfs, which only root may mount (CI
// runs as root). Elsewhere these cases are skipped, and say so.
const mountable = canMountDisks();

const GERMAN_NO_ROOM = 'Auf dem Server ist kein Platz mehr, um das zu speichern; es wurde nichts gespeichert. Sagen Sie es Ihrem Administrator und versuchen Sie es danach erneut.';

interface FullDiskWorld {
  app: App;
  disk: SmallDisk;
  logLines: string[];
  close(): Promise<void>;
}

/** The app on `database`, its error log kept to read; closing it closes the app, then `closeDatabase`, then unmounts the disk. */
async function appOn(database: Database, disk: SmallDisk, closeDatabase: () => Promise<void>): Promise<FullDiskWorld> {
  const logLines: string[] = [];
  const app = await buildTestApp({ database, jwtSecret: TEST_JWT_SECRET, logger: { level: 'error', stream: { write: (line: string) => void logLines.push(line) } } });
  const close = async () => {
    await app.close();
    await closeDatabase();
    disk.close();
  };
  return { app, disk, logLines, close };
}

/** PostgreSQL with the record of work's table in a tablespace on the small disk: it cannot grow once the disk is full, the rest can. */
async function postgresWorld(): Promise<FullDiskWorld> {
  const postgresAccount = accountIds('postgres')!;
  const disk = mountSmallDisk(8, postgresAccount);
  const location = path.join(disk.dir, 'tablespace');
  fs.mkdirSync(location);
  fs.chownSync(location, postgresAccount.uid, postgresAccount.gid);
  const tablespace = `siteboard_full_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  await adminQuery(`create tablespace ${tablespace} location '${location}'`);
  const database = await createTestDatabase('postgres');
  await database.db.execute(sql.raw(`alter table subtask_activity set tablespace ${tablespace}`));
  return appOn(database, disk, async () => {
    await database.drop();
    await adminQuery(`drop tablespace if exists ${tablespace}`);
  });
}

/** The embedded database with its whole data directory on the small disk, copied from the tests' migrated snapshot. */
async function embeddedWorld(): Promise<FullDiskWorld> {
  const templates = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-full-templates-'));
  const template = await PGlite.create(path.join(templates, migrationsHash()), { loadDataDir: new Blob([fs.readFileSync(pgliteSnapshotPath())]) });
  await template.close();
  const disk = mountSmallDisk(160);
  const database = await openDatabase({ kind: 'pglite', dataDir: path.join(disk.dir, 'data'), templates });
  return appOn(database, disk, async () => {
    await database.close();
    fs.rmSync(templates, { recursive: true, force: true });
  });
}

const worlds: [name: string, make: () => Promise<FullDiskWorld>, runs: () => Promise<boolean>][] = [
  ['embedded', embeddedWorld, async () => true],
  ['postgres', postgresWorld, async () => (await isPostgresReachable()) && accountIds('postgres') !== undefined],
];

for (const [name, makeWorld, runs] of worlds) {
  describe.skipIf(!mountable)(`a full disk [${name}]`, async () => {
    const skip = !(await runs());
    let world: FullDiskWorld;
    let team: Team;
    beforeAll(async () => {
      if (skip) return;
      world = await makeWorld();
      team = await createTeam(world.app);
      const german = await callAs(world.app, team.member, { method: 'PATCH', url: '/api/profile/', payload: { language: 'de' } });
      expect(german.statusCode).toBe(200);
    }, 120_000);
    afterAll(async () => {
      world?.disk.free();
      await world?.close();
    });

    it.skipIf(skip)("refuses writes with 507 in the reader's language, changing nothing; reads go on; the same keyed write goes through once there is room", async () => {
      const { app, disk, logLines } = world;
      const work = await insertWork(app.db, team);
      const comments = async () => {
        const [row] = await app.db.select({ n: sql<number>`count(*)::int` }).from(subtaskActivity).where(and(eq(subtaskActivity.subtaskId, work.subtaskId), eq(subtaskActivity.type, 'comment')));
        return row!.n;
      };
      const status = async () => (await app.db.select({ status: subtasks.status }).from(subtasks).where(eq(subtasks.id, work.subtaskId)))[0]!.status;
      const comment = () =>
        callAs(app, team.member, { method: 'POST', url: `/api/subtasks/${work.subtaskId}/comments/`, payload: { text: 'Rebar tied on level 2' }, headers: { 'idempotency-key': `full-${work.subtaskId}` } });

      disk.fill();
      logLines.length = 0;
      const refused = await comment();
      expect(refused.statusCode, refused.body).toBe(507);
      expect(refused.headers['retry-after']).toBe('60');
      expect(refused.json()).toEqual({ detail: GERMAN_NO_ROOM });
      // Sending work for approval writes the subtask and its record: neither half stays.
      const sent = await callAs(app, team.member, { method: 'PATCH', url: `/api/subtasks/${work.subtaskId}/`, payload: { status: 'pending_approval' } });
      expect(sent.statusCode, sent.body).toBe(507);
      expect(await status()).toBe('ongoing');
      expect(await comments()).toBe(0);
      // The operator's log names the cause in one line per refusal, without a stack.
      const lines = logLines.map((line) => JSON.parse(line) as { msg: string; code?: string; reason?: string; err?: unknown });
      const refusals = lines.filter((line) => line.msg.startsWith('no room left on the disk'));
      expect(refusals).toHaveLength(2);
      expect(refusals[0]).toMatchObject({ code: '53100', reason: expect.stringContaining('No space left on device') });
      expect(lines.filter((line) => line.err !== undefined)).toEqual([]);
      // Reading needs no room, and the instance stays in its load balancer: another would meet the same disk.
      const read = await callAs(app, team.member, { method: 'GET', url: `/api/subtasks/${work.subtaskId}/activity/` });
      expect(read.statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/ready/' })).statusCode).toBe(200);

      disk.free();
      const accepted = await comment();
      expect(accepted.statusCode, accepted.body).toBe(201);
      expect(await comments()).toBe(1);
    });

    /**
     * A photo's upload to a new subtask, and the first try of it made with the uploads' temporary
     * folder on the small disk, filled to leave `leaveBytes`: that try must be a 507 in German.
     */
    async function refusedPhotoUpload(photo: Buffer, leaveBytes: number) {
      const { app, disk } = world;
      const work = await insertWork(app.db, team);
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'proof.jpg');
      const encoded = new Response(form);
      const body = Buffer.from(await encoded.arrayBuffer());
      const upload = () =>
        callAs(app, team.member, { method: 'POST', url: `/api/subtasks/${work.subtaskId}/attachments/`, payload: body, headers: { 'content-type': encoded.headers.get('content-type')! } });
      // Uploads are spooled to the system's temporary folder: here, the small disk.
      const tmpdir = process.env.TMPDIR;
      disk.fill(leaveBytes);
      process.env.TMPDIR = disk.dir;
      try {
        const refused = await upload();
        expect(refused.statusCode, refused.body).toBe(507);
        expect(refused.json()).toEqual({ detail: GERMAN_NO_ROOM });
      } finally {
        if (tmpdir === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = tmpdir;
        disk.free();
      }
      // The request's folder goes once its answer is sent.
      await expect.poll(() => fs.readdirSync(disk.dir).filter((entry) => entry.startsWith('siteboard-upload-'))).toEqual([]);
      const [row] = await app.db.select({ n: sql<number>`count(*)::int` }).from(subtaskAttachments).where(eq(subtaskAttachments.subtaskId, work.subtaskId));
      expect(row!.n).toBe(0);
      return upload;
    }

    it.skipIf(skip || name !== 'embedded')('refuses a photo whose upload finds no room on the disk with 507, leaving nothing', async () => {
      const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c05020' } }).jpeg().toBuffer();
      const upload = await refusedPhotoUpload(photo, 0);
      expect((await upload()).statusCode).toBe(201);
    });

    it.skipIf(skip || name !== 'embedded')('refuses a photo whose upload fits but whose kept copy finds no room with 507, not as an unreadable photo', async () => {
      // Noise: the copy kept of it is about as large as the photo itself.
      const noise = Buffer.from(Array.from({ length: 600 * 400 * 3 }, () => Math.floor(Math.random() * 256)));
      const photo = await sharp(noise, { raw: { width: 600, height: 400, channels: 3 } }).jpeg({ quality: 95 }).toBuffer();
      // Room for the upload and a little more, not for the copy made of it.
      const upload = await refusedPhotoUpload(photo, photo.length + 64 * 1024);
      expect((await upload()).statusCode).toBe(201);
    });
  });
}

describe.runIf(!mountable)('a full disk', () => {
  it.skip('needs a disk of its own to fill: mounting one takes root on Linux', () => {});
});
