import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { unzipSync, strFromU8 } from 'fflate';
import { parse } from 'csv-parse/sync';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { attachmentData, subtaskAttachments } from '../schema/activity';
import { sheets } from '../schema/sheets';
import { jobs } from '../schema/jobs';
import { users } from '../schema/users';
import { describeEachDatabase, type TestContext } from '../test/build-app';
import { loginAs } from '../test/factories';
import { callAs, createTeamAndRival, insertWork, type Team } from '../test/work-factories';
import { toBytea } from '../features/tasks/activity.queries';
import { NOT_EXPORTED } from './company-export';
import { deleteCompany, describeCompany, exportCompany } from './operator-company';
import { OperatorError } from './operator-password';

type Counts = Record<string, number>;

/** Every table with a company_id column: how many rows each company has in it. */
async function rowsPerTable(db: TestContext['app']['db'], companyId: number): Promise<Counts> {
  const tables = (await db.execute<{ table_name: string }>(sql`
    select table_name from information_schema.columns
    where table_schema = 'public' and column_name = 'company_id' order by table_name
  `)) as unknown as { rows: { table_name: string }[] };
  const counts: Counts = {};
  for (const { table_name: table } of tables.rows) {
    const result = (await db.execute(sql`select count(*)::int as count from ${sql.identifier(table)} where company_id = ${companyId}`)) as unknown as { rows: { count: number }[] };
    counts[table] = result.rows[0]!.count;
  }
  return counts;
}

/** A company with something in most of its tables: work and its record, a photo, notifications, a drawing, sessions. */
async function fill(ctx: TestContext, team: Team) {
  const work = await insertWork(ctx.app.db, team);
  await loginAs(ctx.app, team.member);
  expect((await callAs(ctx.app, team.member, { method: 'POST', url: `/api/subtasks/${work.subtaskId}/comments/`, payload: { text: 'Formwork checked' } })).statusCode).toBe(201);
  expect((await callAs(ctx.app, team.member, { method: 'PATCH', url: `/api/subtasks/${work.subtaskId}/`, payload: { status: 'pending_approval' } })).statusCode).toBe(200);
  const [photo] = await ctx.app.db
    .insert(subtaskAttachments)
    .values({ companyId: team.company.id, subtaskId: work.subtaskId, uploadedById: team.member.id, contentType: 'image/jpeg', size: 3, width: 1, height: 1 })
    .returning({ id: subtaskAttachments.id });
  const image = await sharp({ create: { width: 8, height: 6, channels: 3, background: '#c05020' } }).jpeg().toBuffer();
  await ctx.app.db.insert(attachmentData).values({ attachmentId: photo!.id, image: toBytea(image), thumbnail: toBytea(image) });
  const [sheet] = await ctx.app.db
    .insert(sheets)
    .values({ companyId: team.company.id, projectId: work.projectId, name: 'Level 1', source: 'pdf', status: 'ready', width: 100, height: 100, maxLevel: 1 })
    .returning({ id: sheets.id });
  return { ...work, photoId: photo!.id, photo: image, sheetId: sheet!.id };
}

describeEachDatabase('npm run delete-company: an operator removes a company that has left', (ctx) => {
  it('says what a company holds without deleting it, and names what it did not find', async () => {
    const [team] = await createTeamAndRival(ctx.app);
    await fill(ctx, team);
    const before = await rowsPerTable(ctx.app.db, team.company.id);

    expect(await describeCompany(ctx.app.db, ` ${team.company.name.toUpperCase()} `)).toEqual({
      company: team.company.name,
      people: 5,
      projects: 1,
      subtasks: 1,
      photos: 1,
      dailyLogs: 0,
      drawings: 1,
    });
    expect(await rowsPerTable(ctx.app.db, team.company.id)).toEqual(before);
    await expect(describeCompany(ctx.app.db, 'No Such Company Ltd')).rejects.toThrow(new OperatorError('No company is named "No Such Company Ltd" (the name is matched whatever its capitals).'));
    await expect(deleteCompany(ctx.app.db, 'No Such Company Ltd')).rejects.toThrow(OperatorError);
  });

  it('deletes every row of the company and nothing of another, signs its people out and queues its drawings’ files', async () => {
    const [team, rival] = await createTeamAndRival(ctx.app);
    const filled = await fill(ctx, team);
    await fill(ctx, rival);
    const rivalBefore = await rowsPerTable(ctx.app.db, rival.company.id);
    const session = await loginAs(ctx.app, team.admin);

    const deleted = await deleteCompany(ctx.app.db, team.company.name);

    expect(deleted).toMatchObject({ company: team.company.name, people: 5, projects: 1, subtasks: 1, photos: 1, drawings: 1 });
    // Nothing of it is left in any table that names a company, nor a photo's bytes.
    const left = await rowsPerTable(ctx.app.db, team.company.id);
    expect(Object.entries(left).filter(([, count]) => count > 0)).toEqual([]);
    const bytes = (await ctx.app.db.execute(sql`select count(*)::int as count from attachment_data where attachment_id = ${filled.photoId}`)) as unknown as { rows: { count: number }[] };
    expect(bytes.rows[0]!.count).toBe(0);
    // The other company is as it was, and its people work on.
    expect(await rowsPerTable(ctx.app.db, rival.company.id)).toEqual(rivalBefore);
    expect((await callAs(ctx.app, rival.admin, { method: 'GET', url: '/api/profile/' })).statusCode).toBe(200);
    // Its people are signed out: their access token and their refresh token no longer work.
    expect((await ctx.app.inject({ method: 'GET', url: '/api/profile/', headers: { authorization: `Bearer ${session.access}` } })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh: session.refresh } })).statusCode).toBe(401);
    await expect(loginAs(ctx.app, team.admin)).rejects.toThrow();
    // The drawing's files go by the platform's own job, which the cascade did not take with the company.
    const queued = await ctx.app.db.select({ companyId: jobs.companyId, payload: jobs.payload }).from(jobs).where(sql`${jobs.queue} = 'sheets.files'`);
    expect(queued).toContainEqual({ companyId: null, payload: { sheets: [{ id: filled.sheetId, sourcePath: null }] } });
    await ctx.app.jobs.idle(['sheets.files']);
    // Its name is free for a new sign-up.
    await expect(describeCompany(ctx.app.db, team.company.name)).rejects.toThrow(OperatorError);
  });

  it('exports everything of a company into one archive: a CSV per table without secrets, its photos and drawings, nothing of another', async () => {
    const [team, rival] = await createTeamAndRival(ctx.app);
    const filled = await fill(ctx, team);
    await fill(ctx, rival);
    await ctx.app.db.update(users).set({ mobileNumber: '+49 170 1234567' }).where(eq(users.id, team.admin.id));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-export-'));
    try {
      fs.mkdirSync(path.join(dir, 'sheets', String(filled.sheetId)), { recursive: true });
      const preview = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#ffffff' } }).jpeg().toBuffer();
      fs.writeFileSync(path.join(dir, 'sheets', String(filled.sheetId), 'preview.jpeg'), preview);
      const file = path.join(dir, 'export.zip');

      const done = await exportCompany(ctx.app.db, team.company.name.toLowerCase(), file, path.join(dir, 'sheets'));

      expect(done).toMatchObject({ company: team.company.name, photos: 1, drawings: 1 });
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.existsSync(`${file}.partial`)).toBe(false);
      const files = unzipSync(fs.readFileSync(file));
      const csv = (name: string) => parse(strFromU8(files[name]!), { columns: true }) as Record<string, string>[];
      expect(strFromU8(files['README.txt']!)).toContain('Passwords and sign-in links are not included.');
      // Every table that names a company is in the archive, or kept out on purpose.
      const tables = (await ctx.app.db.execute(sql`select distinct table_name from information_schema.columns where table_schema = 'public' and column_name = 'company_id'`)) as unknown as { rows: { table_name: string }[] };
      for (const { table_name: table } of tables.rows) expect(Object.hasOwn(files, `${table}.csv`) !== (NOT_EXPORTED as readonly string[]).includes(table), table).toBe(true);
      expect(csv('company.csv')).toEqual([expect.objectContaining({ id: String(team.company.id), name: team.company.name })]);
      expect(Object.keys(csv('company.csv')[0]!)).not.toContain('password_hash');
      const people = csv('users.csv');
      expect(people.map((person) => person.email).sort()).toEqual([team.admin, team.manager, team.otherManager, team.member, team.otherMember].map((person) => person.email).sort());
      expect(Object.keys(people[0]!)).not.toContain('password_hash');
      expect(people.find((person) => person.email === team.member.email)).toMatchObject({ must_change_password: 'false', created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/) });
      expect(csv('subtasks.csv')).toEqual([expect.objectContaining({ id: String(filled.subtaskId), status: 'pending_approval' })]);
      expect(csv('subtask_activity.csv').map((line) => line.text)).toContain('Formwork checked');
      // Texts exactly as written: a mobile number keeps its plus.
      expect(people.find((person) => person.email === team.admin.email)).toMatchObject({ mobile_number: '+49 170 1234567' });
      expect(Buffer.from(files[`photos/subtask-${filled.photoId}.jpg`]!)).toEqual(filled.photo);
      expect(Buffer.from(files[`drawings/sheet-${filled.sheetId}.jpeg`]!)).toEqual(preview);
      // Nothing of the other company.
      const everything = Object.values(files).map((bytes) => Buffer.from(bytes).toString('latin1')).join('\n');
      expect(everything).not.toContain(rival.admin.email);
      expect(everything).not.toContain(rival.company.name);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says why it could not write the archive, and leaves no part of one behind', async () => {
    const [team] = await createTeamAndRival(ctx.app);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-export-'));
    try {
      const file = path.join(dir, 'no-such-folder', 'export.zip');
      await expect(exportCompany(ctx.app.db, team.company.name, file, path.join(dir, 'sheets'))).rejects.toThrow(/ENOENT/);
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
