import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  COMPLETED_PROJECT_SHEETS_READ_ONLY,
  NO_WORK_FOR_SHEETS,
  PIN_NEEDS_APPROVER,
  PIN_SHEET_OF_ANOTHER_PROJECT,
  SHEET_FILE_MISSING,
  SHEET_IMAGE_DAMAGED,
  SHEET_IMAGE_MAX_BYTES,
  SHEET_IMAGE_TOO_LARGE,
  SHEET_NOT_A_DRAWING,
  SHEET_NOT_LATEST,
  SHEET_PAGE_TOO_LARGE,
  SHEET_PDF_ENCRYPTED,
  SHEET_PDF_DAMAGED,
  SHEET_PDF_NO_PAGES,
  SHEET_TOO_LARGE,
  SHEET_TOO_MANY_PAGES,
  UNSTORABLE_TEXT,
  fill,
  pinColour,
  type Sheet,
  type SheetDetail,
  type SheetPin,
  type Subtask,
} from '@siteboard/shared';
import { jobs } from '../../schema/jobs';
import { projects } from '../../schema/projects';
import { sheets } from '../../schema/sheets';
import { buildTestApp, describeEachDatabase, TEST_JWT_SECRET } from '../../test/build-app';
import { callAs, createTeam, insertSubtask, insertWork, type Caller, type Team } from '../../test/work-factories';
import { whileStatementRuns } from '../../test/uncommitted';
import { enqueueJob } from '../../platform';
import { removeSheetFiles } from './sheets.plugin';
import { insertSheets, SHEET_FILES_QUEUE, type SheetFilesJob } from './sheets.queries';
import { RENDER_QUEUE, type RenderJob } from './sheets.service';

/** A PDF as a drawing office sends it: pages of the given size in points, each with lines and its number. */
function pdfOf(pages: [width: number, height: number][], options: PDFKit.PDFDocumentOptions = {}): Promise<Buffer> {
  const document = new PDFDocument({ autoFirstPage: false, ...options });
  const chunks: Buffer[] = [];
  document.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => document.on('end', () => resolve(Buffer.concat(chunks))));
  pages.forEach(([width, height], index) => {
    document.addPage({ size: [width, height], margin: 0 });
    document.rect(20, 20, width - 40, height - 40).lineWidth(4).stroke();
    document.fontSize(40).text(`Page ${index + 1}`, 60, 60);
  });
  document.end();
  return done;
}

/**
 * A plan set whose first page is drawn and whose second is a scanned A3 sheet: a page holding
 * nothing but one greyscale JPEG (`scan`), dark in its top-left quarter.
 */
async function scannedPdf(): Promise<{ pdf: Buffer; scan: Buffer }> {
  const scan = await sharp({ create: { width: 1191, height: 842, channels: 3, background: '#f4f1ea' } })
    .composite([{ input: { create: { width: 595, height: 421, channels: 3, background: '#111111' } }, left: 0, top: 0 }])
    .greyscale()
    .jpeg({ quality: 80 })
    .toBuffer();
  const document = new PDFDocument({ autoFirstPage: false });
  const chunks: Buffer[] = [];
  document.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => document.on('end', () => resolve(Buffer.concat(chunks))));
  document.addPage({ size: A3, margin: 0 });
  document.rect(20, 20, A3[0] - 40, A3[1] - 40).lineWidth(4).stroke();
  document.addPage({ size: A3, margin: 0 });
  document.image(scan, 0, 0, { width: A3[0], height: A3[1] });
  document.end();
  return { pdf: await done, scan };
}

/**
 * A 600 × 400 pt page drawn by two content streams: a thick diagonal, and a second stream that says
 * it is compressed but is not (PDF.js draws what it can; pdf-lib's decoder throws on it).
 */
function pdfWithUndecodableStream(): Buffer {
  const diagonal = '40 w 0 0 m 600 400 l S';
  const mislabelled = '0 0 m 600 0 l S';
  return pdfOfObjects([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 400] /Contents [4 0 R 5 0 R] >>',
    `<< /Length ${diagonal.length} >>\nstream\n${diagonal}\nendstream`,
    `<< /Length ${mislabelled.length} /Filter /FlateDecode >>\nstream\n${mislabelled}\nendstream`,
  ]);
}

/** A PDF of these objects (the first the catalog), with its cross-reference table written by hand. */
function pdfOfObjects(objects: string[]): Buffer {
  let text = '%PDF-1.4\n';
  const offsets = objects.map((object, index) => {
    const offset = text.length;
    text += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(text, 'latin1');
}

/** A PDF whose page tree is `pages` (the catalog's /Pages object), with nothing else in it. */
function pdfWithPageTree(pages: string): Buffer {
  return pdfOfObjects(['<< /Type /Catalog /Pages 2 0 R >>', pages]);
}

/** The colour of one pixel of an image. */
async function pixelAt(image: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}

/** The mean grey of a region of an image, in fractions of its size. */
async function meanOf(image: Buffer, [left, top, width, height]: [number, number, number, number]) {
  const meta = await sharp(image).metadata();
  const region = { left: Math.round(left * meta.width), top: Math.round(top * meta.height), width: Math.round(width * meta.width), height: Math.round(height * meta.height) };
  // stats() reads its input, not a pipeline's result: the region is cut out first.
  const { channels } = await sharp(await sharp(image).extract(region).png().toBuffer()).stats();
  return channels[0]!.mean;
}

const A3: [number, number] = [1191, 842];
/** A small pixel budget: every sheet here renders in well under a second. */
const BUDGET = 2_000_000;

function form(file: Buffer, filename: string, type: string, fields: Record<string, string> = {}) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  if (file.length >= 0) body.append('file', new Blob([new Uint8Array(file)], { type }), filename);
  const encoded = new Response(body);
  return encoded.arrayBuffer().then((bytes) => ({ payload: Buffer.from(bytes), headers: { 'content-type': encoded.headers.get('content-type')! } }));
}

const forgetters: (() => void)[] = [];
/** Made once for the file (both databases' suites: no fixture here depends on the database), let go when it ends. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  forgetters.push(() => (made = undefined));
  return () => (made ??= make());
}
afterAll(() => forgetters.forEach((forget) => forget()));

/** A PNG whose header claims 100,000 × 100,000 pixels (a well-formed header: its checksum says the same). */
const liarPng = once(async () => {
  const liar = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } }).png().toBuffer();
  liar.writeUInt32BE(100_000, 16);
  liar.writeUInt32BE(100_000, 20);
  // The IHDR chunk's checksum covers its type and data (bytes 12–28).
  liar.writeUInt32BE(zlib.crc32(liar.subarray(12, 29)), 29);
  return liar;
});
/** The upload of an image of more than 50 MB (its first bytes a real PNG's): its body, encoded once (seconds of copying). */
const oversizedImageForm = once(async () => form(Buffer.concat([await liarPng(), Buffer.alloc(SHEET_IMAGE_MAX_BYTES)]), 'scan.png', 'image/png'));
/** A JPEG cut short after its header (noise, so that every part of it takes bytes): it decodes only as far as its bytes go. */
const truncatedJpeg = once(async () => {
  const full = await sharp({ create: { width: 640, height: 640, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).jpeg().toBuffer();
  return full.subarray(0, full.length / 3);
});

async function upload(app: Parameters<typeof callAs>[0], caller: Caller, projectId: number, file: Buffer, filename: string, type = 'application/pdf', fields: Record<string, string> = {}) {
  return callAs(app, caller, { method: 'POST', url: `/api/projects/${projectId}/sheets/`, ...(await form(file, filename, type, fields)) });
}

describeEachDatabase(
  'drawings: sheets, tiles, versions and pins',
  (ctx) => {
  let team: Team;
  let work: Awaited<ReturnType<typeof insertWork>>;
  let pages: Sheet[];

  /** The sheets once their rendering jobs are done, as the API reads them. */
  async function rendered(ids: number[]): Promise<SheetDetail[]> {
    await ctx.app.jobs.idle([RENDER_QUEUE], 60_000);
    return Promise.all(ids.map(async (id) => (await callAs(ctx.app, team.manager, { method: 'GET', url: `/api/sheets/${id}/` })).json<SheetDetail>()));
  }

  beforeAll(async () => {
    team = await createTeam(ctx.app);
    work = await insertWork(ctx.app.db, team);
    const response = await upload(ctx.app, team.manager, work.projectId, await pdfOf([A3, A3]), 'Level 2.pdf');
    expect(response.statusCode, response.body).toBe(202);
    pages = response.json();
  });

  it('answers at once with one processing sheet per page, then renders each into tiles and a preview', async () => {
    expect(pages.map(({ name, page_number, version, status }) => ({ name, page_number, version, status }))).toEqual([
      { name: 'Level 2 – 1', page_number: 1, version: 1, status: 'processing' },
      { name: 'Level 2 – 2', page_number: 2, version: 1, status: 'processing' },
    ]);
    const [first, second] = await rendered(pages.map((sheet) => sheet.id));
    for (const sheet of [first!, second!]) {
      expect(sheet.status).toBe('ready');
      expect(sheet.failure).toBeNull();
      // An A3 page as large as the pixel budget allows (12,000 px on its long side would be 101 M pixels).
      expect(sheet.width! * sheet.height!).toBeLessThanOrEqual(BUDGET);
      expect(sheet.width! * sheet.height!).toBeGreaterThan(BUDGET * 0.99);
      expect(sheet.width! / sheet.height!).toBeCloseTo(1191 / 842, 2);
      expect(sheet.max_level).toBe(Math.ceil(Math.log2(sheet.width!)));
      expect(sheet.tile_url_template).toBe(`/api/sheets/${sheet.id}/tiles/{level}/{col}_{row}.jpeg`);
    }

    const url = first!.tile_url_template!.replace('{level}', String(first!.max_level)).replace('{col}', '3').replace('{row}', '2');
    const tile = await callAs(ctx.app, team.member, { method: 'GET', url });
    expect(tile.statusCode).toBe(200);
    expect(tile.headers['content-type']).toBe('image/jpeg');
    expect(tile.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(await sharp(tile.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 256, height: 256 });
    // Three levels down the sheet is an eighth of its size, in one tile.
    const overview = await callAs(ctx.app, team.member, { method: 'GET', url: `/api/sheets/${first!.id}/tiles/${first!.max_level! - 3}/0_0.jpeg` });
    expect(await sharp(overview.rawPayload).metadata()).toMatchObject({ width: Math.ceil(first!.width! / 8), height: Math.ceil(first!.height! / 8) });
    const preview = await callAs(ctx.app, team.member, { method: 'GET', url: first!.preview_url! });
    expect(await sharp(preview.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 1024 });
    // The page is drawn in bands (the suite's band is ~150 rows): the frame's bottom edge, in the last band, is there.
    expect(await meanOf(preview.rawPayload, [0.2, 0.97, 0.6, 0.012])).toBeLessThan(200);
    expect(await meanOf(preview.rawPayload, [0.2, 0.9, 0.6, 0.03])).toBeGreaterThan(250);
    expect((await callAs(ctx.app, team.member, { method: 'GET', url: `/api/sheets/${first!.id}/tiles/${first!.max_level}/999_0.jpeg` })).statusCode).toBe(404);

    const list = await callAs(ctx.app, team.member, { method: 'GET', url: `/api/projects/${work.projectId}/sheets/` });
    expect(list.json<Sheet[]>().map((sheet) => [sheet.id, sheet.status])).toEqual(pages.map((sheet) => [sheet.id, 'ready']));
  });

  it('pins, moves and unpins a subtask; every subtask answer carries its pin; a new version keeps the pins in place', async () => {
    const [, page2] = pages;
    const patch = (caller: Caller, payload: object) => callAs(ctx.app, caller, { method: 'PATCH', url: `/api/subtasks/${work.subtaskId}/`, payload });

    const pinned = await patch(team.manager, { pin: { sheet_id: page2!.id, x: 0.25, y: 0.75 } });
    expect(pinned.statusCode, pinned.body).toBe(200);
    expect(pinned.json<Subtask>().pin).toEqual({ sheet_id: page2!.id, x: 0.25, y: 0.75 });
    // The assignee may only send it for approval: moving the pin is an edit.
    expect((await patch(team.member, { pin: { sheet_id: page2!.id, x: 0.5, y: 0.5 } })).statusCode).toBe(403);
    expect((await patch(team.manager, { pin: { sheet_id: page2!.id, x: 1.5, y: 0.5 } })).json().errors).toEqual({ 'pin.x': ['x must be a number from 0 to 1.'] });
    const moved = await patch(team.manager, { pin: { sheet_id: page2!.id, x: 0.5, y: 0.125 } });
    expect(moved.json<Subtask>().pin).toEqual({ sheet_id: page2!.id, x: 0.5, y: 0.125 });

    const pins = await callAs(ctx.app, team.member, { method: 'GET', url: `/api/sheets/${page2!.id}/pins/` });
    expect(pins.json<SheetPin[]>()).toEqual([
      { subtask_id: work.subtaskId, x: 0.5, y: 0.125, status: 'ongoing', name: expect.any(String), assigned_to: { id: team.member.id, email: team.member.email, full_name: null }, due_date: expect.any(String), closed_unfinished_at: null, may_move: false },
    ]);
    // Each pin says whether the caller may drag it: the same rule as the PATCH (canMoveSubtaskPin).
    const managersPins = await callAs(ctx.app, team.manager, { method: 'GET', url: `/api/sheets/${page2!.id}/pins/` });
    expect(managersPins.json<SheetPin[]>().map((pin) => pin.may_move)).toEqual([true]);
    const mine = await callAs(ctx.app, team.member, { method: 'GET', url: '/api/subtasks/?assigned_to=me' });
    expect(mine.json<Subtask[]>().find((subtask) => subtask.id === work.subtaskId)?.pin).toEqual({ sheet_id: page2!.id, x: 0.5, y: 0.125 });

    const version = await callAs(ctx.app, team.manager, { method: 'POST', url: `/api/sheets/${page2!.id}/versions/`, ...(await form(await pdfOf([A3, A3]), 'Level 2 rev B.pdf', 'application/pdf')) });
    expect(version.statusCode, version.body).toBe(202);
    const v2 = version.json<Sheet>();
    expect(v2).toMatchObject({ name: 'Level 2 – 2', page_number: 2, version: 2, status: 'processing' });
    const [ready] = await rendered([v2.id]);
    expect(ready!.versions.map((entry) => [entry.id, entry.version])).toEqual([
      [page2!.id, 1],
      [v2.id, 2],
    ]);
    // The pin is on the new version at the same relative place; the old version still opens.
    expect((await callAs(ctx.app, team.member, { method: 'GET', url: `/api/subtasks/${work.subtaskId}/` })).json<Subtask>().pin).toEqual({ sheet_id: v2.id, x: 0.5, y: 0.125 });
    expect((await callAs(ctx.app, team.member, { method: 'GET', url: `/api/sheets/${page2!.id}/tiles/0/0_0.jpeg` })).statusCode).toBe(200);
    const list = (await callAs(ctx.app, team.member, { method: 'GET', url: `/api/projects/${work.projectId}/sheets/` })).json<Sheet[]>();
    expect(list.map((sheet) => sheet.id)).toEqual([pages[0]!.id, v2.id]);
    expect((await patch(team.manager, { pin: { sheet_id: page2!.id, x: 0.1, y: 0.1 } })).json().errors).toEqual({ 'pin.sheet_id': [SHEET_NOT_LATEST] });

    const unpinned = await patch(team.manager, { pin: null });
    expect(unpinned.json<Subtask>().pin).toBeNull();
    expect((await callAs(ctx.app, team.member, { method: 'GET', url: `/api/sheets/${v2.id}/pins/` })).json()).toEqual([]);
  });

  it('shows a team member the pins of the subtasks their lists show, not only their own; without work in the project, none', async () => {
    const [page1] = pages;
    // The member has some of the sheet's work: theirs, and one of another person in the same project.
    const others = await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: work.majorTaskId, assignedToId: team.otherManager.id, assignedById: team.manager.id, name: 'Fire door 2.14' });
    const pin = (subtaskId: number, pin: object | null) => callAs(ctx.app, team.manager, { method: 'PATCH', url: `/api/subtasks/${subtaskId}/`, payload: { pin } });
    expect((await pin(work.subtaskId, { sheet_id: page1!.id, x: 0.2, y: 0.2 })).statusCode).toBe(200);
    expect((await pin(others.id, { sheet_id: page1!.id, x: 0.8, y: 0.6 })).statusCode).toBe(200);

    const pins = (await callAs(ctx.app, team.member, { method: 'GET', url: `/api/sheets/${page1!.id}/pins/` })).json<SheetPin[]>();
    // Every role reads the company's subtasks (the project view lists each with its assignee): the sheet shows the same.
    const listed = (await callAs(ctx.app, team.member, { method: 'GET', url: '/api/subtasks/?limit=100' })).json<Subtask[]>();
    const listedOnSheet = listed.filter((subtask) => subtask.pin?.sheet_id === page1!.id).map((subtask) => subtask.id);
    expect(pins.map((shown) => shown.subtask_id)).toEqual(listedOnSheet);
    expect(pins.map(({ subtask_id, may_move }) => [subtask_id, may_move])).toEqual([
      [work.subtaskId, false],
      [others.id, false],
    ]);
    // A member with no work in the project reads neither its sheets nor their pins.
    const pinsRefused = await callAs(ctx.app, team.otherMember, { method: 'GET', url: `/api/sheets/${page1!.id}/pins/` });
    expect(pinsRefused.statusCode).toBe(403);
    expect(pinsRefused.json().detail).toBe(NO_WORK_FOR_SHEETS);

    await pin(work.subtaskId, null);
    await pin(others.id, null);
  });

  it("answers another company's sheet and project 404 before a malformed tile or page is refused, in the reader's language", async () => {
    const stranger = (await createTeam(ctx.app)).admin;
    await callAs(ctx.app, stranger, { method: 'PATCH', url: '/api/profile/', payload: { language: 'de' } });
    const [sheet] = pages;
    for (const url of [`/api/sheets/${sheet!.id}/tiles/0/not-a-tile.jpeg`, `/api/sheets/${sheet!.id}/tiles/99/0_0.jpeg`, `/api/projects/${work.projectId}/sheets/?limit=abc`]) {
      const refused = await callAs(ctx.app, stranger, { method: 'GET', url });
      expect([url, refused.statusCode]).toEqual([url, 404]);
      expect(refused.json().detail).toMatch(/nicht gefunden/);
    }
    // The company's own reader still learns what is wrong with the name.
    const own = await callAs(ctx.app, team.member, { method: 'GET', url: `/api/sheets/${sheet!.id}/tiles/0/not-a-tile.jpeg` });
    expect(own.statusCode).toBe(400);
  });

  it("refuses a pin on another project's or another company's sheet", async () => {
    const other = await insertWork(ctx.app.db, team);
    const patch = (sheetId: number) => callAs(ctx.app, team.manager, { method: 'PATCH', url: `/api/subtasks/${other.subtaskId}/`, payload: { pin: { sheet_id: sheetId, x: 0.5, y: 0.5 } } });
    expect((await patch(pages[0]!.id)).json().errors).toEqual({ 'pin.sheet_id': [PIN_SHEET_OF_ANOTHER_PROJECT] });
    expect((await patch(2_000_000)).json().errors).toEqual({ 'pin.sheet_id': [PIN_SHEET_OF_ANOTHER_PROJECT] });
  });

  it('creates a subtask pinned where the manager tapped, in one write; a pin that cannot be placed makes no subtask', async () => {
    const [page1] = pages;
    const create = (caller: Caller, pin: object) =>
      callAs(ctx.app, caller, { method: 'POST', url: '/api/subtasks/', payload: { major_task_id: work.majorTaskId, name: 'Core drill for riser 4', assigned_to_id: team.member.id, due_date: '2099-01-10', pin } });
    const named = async () => (await callAs(ctx.app, team.manager, { method: 'GET', url: `/api/subtasks/?major_task=${work.majorTaskId}&limit=100` })).json<Subtask[]>().filter((subtask) => subtask.name === 'Core drill for riser 4');

    // A sheet that is not the project's, and a team member (who may create a subtask but not pin one): nothing is made.
    expect((await create(team.manager, { sheet_id: 2_000_000, x: 0.3, y: 0.4 })).json().errors).toEqual({ 'pin.sheet_id': [PIN_SHEET_OF_ANOTHER_PROJECT] });
    const member = await create(team.otherMember, { sheet_id: page1!.id, x: 0.3, y: 0.4 });
    expect(member.statusCode).toBe(403);
    expect(member.json().detail).toBe(PIN_NEEDS_APPROVER);
    expect(await named()).toEqual([]);

    const created = await create(team.manager, { sheet_id: page1!.id, x: 0.3, y: 0.4 });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<Subtask>().pin).toEqual({ sheet_id: page1!.id, x: 0.3, y: 0.4 });
    expect((await named()).map((subtask) => subtask.id)).toEqual([created.json<Subtask>().id]);
    const pins = (await callAs(ctx.app, team.member, { method: 'GET', url: `/api/sheets/${page1!.id}/pins/` })).json<SheetPin[]>();
    expect(pins.find((pin) => pin.subtask_id === created.json<Subtask>().id)).toMatchObject({ x: 0.3, y: 0.4, name: 'Core drill for riser 4' });
    await callAs(ctx.app, team.manager, { method: 'PATCH', url: `/api/subtasks/${created.json<Subtask>().id}/`, payload: { pin: null } });
  });

  it('renames and deletes a sheet with its versions, unpinning its subtasks and removing its files', async () => {
    const response = await upload(ctx.app, team.admin, work.projectId, await sharp({ create: { width: 600, height: 400, channels: 3, background: '#ffffff' } }).png().toBuffer(), 'site-plan.png', 'image/png');
    expect(response.statusCode, response.body).toBe(202);
    const [image] = response.json<Sheet[]>();
    expect(image).toMatchObject({ name: 'site-plan', page_number: 1 });
    const [ready] = await rendered([image!.id]);
    expect(ready).toMatchObject({ status: 'ready', width: 600, height: 400, max_level: 10 });

    const renamed = await callAs(ctx.app, team.manager, { method: 'PATCH', url: `/api/sheets/${image!.id}/`, payload: { name: 'Site plan' } });
    expect(renamed.json<Sheet>().name).toBe('Site plan');
    await callAs(ctx.app, team.manager, { method: 'PATCH', url: `/api/subtasks/${work.subtaskId}/`, payload: { pin: { sheet_id: image!.id, x: 0.5, y: 0.5 } } });

    expect((await callAs(ctx.app, team.manager, { method: 'DELETE', url: `/api/sheets/${image!.id}/` })).statusCode).toBe(204);
    expect((await callAs(ctx.app, team.manager, { method: 'GET', url: `/api/sheets/${image!.id}/` })).statusCode).toBe(404);
    expect((await callAs(ctx.app, team.member, { method: 'GET', url: `/api/subtasks/${work.subtaskId}/` })).json<Subtask>().pin).toBeNull();
    expect((await callAs(ctx.app, team.member, { method: 'GET', url: `/api/sheets/${image!.id}/tiles/10/0_0.jpeg` })).statusCode).toBe(404);
  });

  it('keeps the files of a keyed delete whose commit fails: the drawing still opens', async () => {
    const [image] = (await upload(ctx.app, team.manager, work.projectId, await sharp({ create: { width: 600, height: 400, channels: 3, background: '#ffffff' } }).png().toBuffer(), 'kept.png', 'image/png')).json<Sheet[]>();
    await rendered([image!.id]);
    const tile = () => callAs(ctx.app, team.member, { method: 'GET', url: `/api/sheets/${image!.id}/tiles/10/0_0.jpeg` });
    expect((await tile()).statusCode).toBe(200);
    // The commit itself fails (as on a lost connection or a full disk at that moment): a check deferred to it refuses this key.
    await ctx.app.db.execute(sql`create function refuse_at_commit() returns trigger language plpgsql as $$ begin raise exception 'refused at commit'; end $$`);
    await ctx.app.db.execute(sql`create constraint trigger refuse_at_commit after insert on idempotency_keys deferrable initially deferred for each row when (new.key = 'fails-at-commit') execute function refuse_at_commit()`);
    try {
      const removal = await callAs(ctx.app, team.manager, { method: 'DELETE', url: `/api/sheets/${image!.id}/`, headers: { 'idempotency-key': 'fails-at-commit' } });
      expect(removal.statusCode).toBe(500);
    } finally {
      await ctx.app.db.execute(sql`drop trigger refuse_at_commit on idempotency_keys`);
      await ctx.app.db.execute(sql`drop function refuse_at_commit()`);
    }
    expect((await callAs(ctx.app, team.manager, { method: 'GET', url: `/api/sheets/${image!.id}/` })).statusCode).toBe(200);
    expect((await tile()).statusCode).toBe(200);
    // Sent again, it commits, and only then are the files gone.
    expect((await callAs(ctx.app, team.manager, { method: 'DELETE', url: `/api/sheets/${image!.id}/`, headers: { 'idempotency-key': 'fails-at-commit' } })).statusCode).toBe(204);
    expect((await tile()).statusCode).toBe(404);
  });

  it('numbers each new version once when several arrive at the same moment', async () => {
    const plan = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#ffffff' } }).png().toBuffer();
    const first = await upload(ctx.app, team.manager, work.projectId, plan, 'Level 3.png', 'image/png');
    const [sheet] = first.json<Sheet[]>();
    const uploads = await Promise.all(
      Array.from({ length: 6 }, async (_, index) =>
        callAs(ctx.app, index % 2 === 0 ? team.manager : team.admin, { method: 'POST', url: `/api/sheets/${sheet!.id}/versions/`, ...(await form(plan, `Level 3 rev ${index}.png`, 'image/png')) }),
      ),
    );
    expect(uploads.map((response) => response.statusCode)).toEqual(Array(6).fill(202));
    const versions = (await callAs(ctx.app, team.manager, { method: 'GET', url: `/api/sheets/${sheet!.id}/` })).json<SheetDetail>().versions;
    expect(versions.map((entry) => entry.version)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(uploads.map((response) => response.json<Sheet>().version).sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7]);
  });

  it("lists a project's sheets a page at a time, the latest version of each, with how many there are", async () => {
    const project = await insertWork(ctx.app.db, team);
    const made = (await upload(ctx.app, team.manager, project.projectId, await pdfOf([A3, A3, A3]), 'Set.pdf')).json<Sheet[]>();
    const plan = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#ffffff' } }).png().toBuffer();
    const revised = (await callAs(ctx.app, team.manager, { method: 'POST', url: `/api/sheets/${made[1]!.id}/versions/`, ...(await form(plan, 'Set rev B.png', 'image/png')) })).json<Sheet>();
    const list = (query: string) => callAs(ctx.app, team.member, { method: 'GET', url: `/api/projects/${project.projectId}/sheets/${query}` });
    const pageOf = (response: Awaited<ReturnType<typeof list>>) => ({ total: response.headers['x-total-count'], ids: response.json<Sheet[]>().map((sheet) => sheet.id) });
    expect(pageOf(await list(''))).toEqual({ total: '3', ids: [made[0]!.id, revised.id, made[2]!.id] });
    expect(pageOf(await list('?limit=2'))).toEqual({ total: '3', ids: [made[0]!.id, revised.id] });
    expect(pageOf(await list('?limit=2&offset=2'))).toEqual({ total: '3', ids: [made[2]!.id] });
    expect(pageOf(await list('?offset=5'))).toEqual({ total: '3', ids: [] });
    const tooMany = await list('?limit=201');
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().errors).toEqual({ limit: ['limit must be at most 200.'] });
  });

  it('answers a rename that a removal overtook with 404, never a failure', async () => {
    const plan = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#ffffff' } }).png().toBuffer();
    for (let round = 0; round < 4; round++) {
      const [sheet] = (await upload(ctx.app, team.manager, work.projectId, plan, `Race ${round}.png`, 'image/png')).json<Sheet[]>();
      const url = `/api/sheets/${sheet!.id}/`;
      const [removed, ...renamed] = await Promise.all([
        callAs(ctx.app, team.admin, { method: 'DELETE', url }),
        ...[1, 2, 3].map((n) => callAs(ctx.app, team.manager, { method: 'PATCH', url, payload: { name: `Race ${round}.${n}` } })),
      ]);
      expect(removed!.statusCode).toBe(204);
      for (const response of renamed) {
        expect([200, 404], response.body).toContain(response.statusCode);
        if (response.statusCode === 404) expect(response.json().detail).toBe('Sheet not found.');
      }
    }
  });

  it('answers a rename made just before its sheet went with what was saved: a 200, not a 404 (both databases)', async () => {
    const [id] = await insertSheets(ctx.app.db, [{ companyId: team.company.id, projectId: work.projectId, name: 'Level 1', pageNumber: 1, source: 'image', sourcePath: path.join(os.tmpdir(), `${randomUUID()}.png`), createdById: team.manager.id }]);
    const renamed = await whileStatementRuns(
      ctx.queries,
      /^update "sheets"/,
      () => ctx.app.db.delete(sheets).where(eq(sheets.id, id!)),
      () => callAs(ctx.app, team.manager, { method: 'PATCH', url: `/api/sheets/${id}/`, payload: { name: 'Level 1, revised' } }),
    );
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<Sheet>()).toMatchObject({ id, name: 'Level 1, revised' });
  });

  it('answers an upload whose project went just after with the sheets it made, not an empty list (both databases)', async () => {
    const site = await insertWork(ctx.app.db, team);
    // Asked as the sheets are written: run after the upload's commit, before a later read.
    const made = await whileStatementRuns(
      ctx.queries,
      /^insert into "sheets"/,
      () => ctx.app.db.delete(projects).where(eq(projects.id, site.projectId)),
      async () => upload(ctx.app, team.manager, site.projectId, await pdfOf([A3, A3]), 'Gone.pdf'),
    );
    expect(made.statusCode, made.body).toBe(202);
    expect(made.json<Sheet[]>().map(({ name, page_number, version }) => ({ name, page_number, version }))).toEqual([
      { name: 'Gone – 1', page_number: 1, version: 1 },
      { name: 'Gone – 2', page_number: 2, version: 1 },
    ]);
  });

  it('answers a new version whose sheet went just after with that version, not a 404 (both databases)', async () => {
    const [id] = await insertSheets(ctx.app.db, [{ companyId: team.company.id, projectId: work.projectId, name: 'Level 3', pageNumber: 1, source: 'image', sourcePath: path.join(os.tmpdir(), `${randomUUID()}.png`), createdById: team.manager.id }]);
    const plan = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#ffffff' } }).png().toBuffer();
    const version = await whileStatementRuns(
      ctx.queries,
      /^insert into "sheets"/,
      () => ctx.app.db.delete(sheets).where(eq(sheets.id, id!)),
      async () => callAs(ctx.app, team.manager, { method: 'POST', url: `/api/sheets/${id}/versions/`, ...(await form(plan, 'Level 3 rev B.png', 'image/png')) }),
    );
    expect(version.statusCode, version.body).toBe(202);
    expect(version.json<Sheet>()).toMatchObject({ name: 'Level 3', version: 2 });
  });

  it("shows a phone's photo of a plan upright, whole, at its upright size", async () => {
    // Four stripes left to right, stored as the camera held it: EXIF orientation 6 turns it a quarter to the right.
    const stripes = ['#ff0000', '#ffff00', '#00ff00', '#0000ff'];
    const photo = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#ffffff' } })
      .composite(stripes.map((colour, index) => ({ input: { create: { width: 100, height: 200, channels: 3, background: colour } }, left: index * 100, top: 0 })))
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const [made] = (await upload(ctx.app, team.manager, work.projectId, photo, 'photo-of-plan.jpg', 'image/jpeg')).json<Sheet[]>();
    const [ready] = await rendered([made!.id]);
    // Upright, the stripes run top to bottom: red first, blue last.
    expect(ready).toMatchObject({ status: 'ready', width: 200, height: 400, max_level: 9 });
    const tile = async (name: string) => (await callAs(ctx.app, team.member, { method: 'GET', url: `/api/sheets/${ready!.id}/tiles/9/${name}.jpeg` })).rawPayload;
    const [top, bottom] = [await tile('0_0'), await tile('0_1')];
    expect(await sharp(top).metadata()).toMatchObject({ width: 200, height: 256 });
    expect(await sharp(bottom).metadata()).toMatchObject({ width: 200, height: 144 });
    const near = ([r, g, b]: [number, number, number], [R, G, B]: [number, number, number]) => Math.abs(r - R) + Math.abs(g - G) + Math.abs(b - B) < 60;
    expect(near(await pixelAt(top, 100, 20), [255, 0, 0])).toBe(true);
    expect(near(await pixelAt(top, 100, 150), [255, 255, 0])).toBe(true);
    expect(near(await pixelAt(bottom, 100, 130), [0, 0, 255])).toBe(true);
  });

  it('renders a plan far longer than wide (a strip a pixel wide) whole, never a failing job', async () => {
    const strip = await sharp({ create: { width: 1, height: 40_000, channels: 3, background: '#000000' } }).png().toBuffer();
    const response = await upload(ctx.app, team.manager, work.projectId, strip, 'strip.png', 'image/png');
    expect(response.statusCode, response.body).toBe(202);
    const [ready] = await rendered([response.json<Sheet[]>()[0]!.id]);
    expect(ready).toMatchObject({ status: 'ready', width: 1, height: 12_000 });
  });

  it('names a drawing as typed, refusing control characters there, and leaves them out of a file name', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#ffffff' } }).png().toBuffer();
    const before = await ctx.app.db.select({ id: sheets.id }).from(sheets).orderBy(sheets.id);
    const typed = await upload(ctx.app, team.manager, work.projectId, png, 'plan.png', 'image/png', { name: 'Level\u00002' });
    expect(typed.statusCode, typed.body).toBe(400);
    expect(typed.json().errors).toEqual({ name: [UNSTORABLE_TEXT] });
    expect(await ctx.app.db.select({ id: sheets.id }).from(sheets).orderBy(sheets.id)).toEqual(before);

    const named = await upload(ctx.app, team.manager, work.projectId, png, 'Level\u00002\u0007.png', 'image/png');
    expect(named.statusCode, named.body).toBe(202);
    const [sheet] = named.json<Sheet[]>();
    expect(sheet!.name).toBe('Level2');
    await rendered([sheet!.id]);
    expect((await callAs(ctx.app, team.manager, { method: 'DELETE', url: `/api/sheets/${sheet!.id}/` })).statusCode).toBe(204);
  });

  it('removes the upload of a sheet deleted before it was rendered', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-sheet-upload-'));
    try {
      const sourcePath = path.join(dir, `${randomUUID()}.img`);
      fs.writeFileSync(sourcePath, await sharp({ create: { width: 40, height: 30, channels: 3, background: '#ffffff' } }).png().toBuffer());
      const [id] = await insertSheets(ctx.app.db, [{ companyId: team.company.id, projectId: work.projectId, name: 'Waiting its turn', pageNumber: 1, source: 'image', sourcePath, createdById: team.manager.id }]);
      // Its rendering waits for a retry an hour away (its first attempt failed).
      await enqueueJob(ctx.app.db, RENDER_QUEUE, { sheetId: id, scan: null } satisfies RenderJob, { companyId: team.company.id, runAt: new Date(Date.now() + 3_600_000) });

      // Sent with a key, as the app sends every write: the removal is queued inside the keyed transaction.
      const deleted = await callAs(ctx.app, team.manager, { method: 'DELETE', url: `/api/sheets/${id}/`, headers: { 'idempotency-key': randomUUID() } });
      expect(deleted.statusCode).toBe(204);
      await ctx.app.jobs.idle([SHEET_FILES_QUEUE], 30_000);
      expect(fs.existsSync(sourcePath)).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("removes a deleted project's drawings: every sheet's folder and upload, nothing else in the folder", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-sheet-files-'));
    try {
      const doomed = await insertWork(ctx.app.db, team);
      const [goneId, alsoGoneId] = await insertSheets(ctx.app.db, [
        { companyId: team.company.id, projectId: doomed.projectId, name: 'Goes with its project', pageNumber: 1, source: 'image', sourcePath: path.join(dir, 'sources', 'gone.img'), createdById: team.manager.id },
        { companyId: team.company.id, projectId: doomed.projectId, name: 'So does this one', pageNumber: 1, source: 'image', sourcePath: path.join(dir, 'sources', 'also-gone.img'), createdById: team.manager.id },
      ]);
      const keptId = pages[0]!.id;
      const write = (relative: string) => {
        fs.mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
        fs.writeFileSync(path.join(dir, relative), 'x');
      };
      for (const relative of [`${goneId}/preview.jpeg`, `${goneId}/tiles_files/0/0_0.jpeg`, `${alsoGoneId}.partial-${randomUUID()}/preview.jpeg`, `${keptId}/preview.jpeg`, 'sources/gone.img', 'sources/also-gone.img', 'sources/not-ours.pdf']) write(relative);
      expect((await callAs(ctx.app, team.admin, { method: 'DELETE', url: `/api/projects/${doomed.projectId}/` })).statusCode).toBe(204);

      // The deletion queued the removal of exactly its sheets' files.
      const queued = (await ctx.app.db.select({ payload: jobs.payload }).from(jobs).where(eq(jobs.queue, SHEET_FILES_QUEUE))).map((row) => row.payload as SheetFilesJob);
      const job = queued.find((payload) => payload.sheets.some(({ id }) => id === goneId))!;
      expect(job.sheets.map(({ id }) => id).sort()).toEqual([goneId, alsoGoneId].sort());
      await removeSheetFiles(ctx.app.db, dir, job);
      expect(fs.readdirSync(dir).sort()).toEqual([String(keptId), 'sources'].sort());
      expect(fs.readdirSync(path.join(dir, 'sources'))).toEqual(['not-ours.pdf']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses bad files with a clear reason and leaves nothing behind', { timeout: 120_000 }, async () => {
    const before = await ctx.app.db.select({ id: sheets.id }).from(sheets).orderBy(sheets.id);
    const answered = (response: Awaited<ReturnType<typeof callAs>>) => ({ status: response.statusCode, errors: response.json().errors });
    const refusal = async (file: Buffer, filename: string, type = 'application/pdf') => answered(await upload(ctx.app, team.manager, work.projectId, file, filename, type));
    expect(await refusal(Buffer.alloc(0), 'empty.pdf')).toEqual({ status: 400, errors: { file: [SHEET_FILE_MISSING] } });
    expect(await refusal(Buffer.from('PK\u0003\u0004 this is a zip, not a drawing'.repeat(20)), 'plan.pdf')).toEqual({ status: 400, errors: { file: [SHEET_NOT_A_DRAWING] } });
    const pdf = await pdfOf([A3]);
    expect(await refusal(Buffer.concat([pdf.subarray(0, 400), Buffer.alloc(2000, 0x20)]), 'cut.pdf')).toEqual({ status: 400, errors: { file: [SHEET_PDF_DAMAGED] } });
    expect(await refusal(await pdfOf([A3], { userPassword: 'site office' }), 'locked.pdf')).toEqual({ status: 400, errors: { file: [SHEET_PDF_ENCRYPTED] } });
    const tooMany = await pdfOf(Array.from({ length: 201 }, () => [200, 200] as [number, number]));
    expect(await refusal(tooMany, 'bomb.pdf')).toEqual({ status: 400, errors: { file: [fill(SHEET_TOO_MANY_PAGES, { pages: 201, max: 200 })] } });
    expect(await refusal(pdfWithPageTree('<< /Type /Pages /Kids [] /Count 0 >>'), 'empty-set.pdf')).toEqual({ status: 400, errors: { file: [SHEET_PDF_NO_PAGES] } });
    // A page tree that counts a page it does not hold: refused on upload, not made into a blank sheet.
    expect(await refusal(pdfWithPageTree('<< /Type /Pages /Kids [] /Count 1 >>'), 'hollow.pdf')).toEqual({ status: 400, errors: { file: [SHEET_PDF_DAMAGED] } });
    // Over the size a drawing may be: said so, not called damaged (sharp's own pixel limit is lower than ours).
    expect(await refusal(await liarPng(), 'liar.png', 'image/png')).toEqual({ status: 400, errors: { file: [fill(SHEET_IMAGE_TOO_LARGE, { max: 400 })] } });
    // An image of more than 50 MB: refused before anything is made.
    const oversized = await callAs(ctx.app, team.manager, { method: 'POST', url: `/api/projects/${work.projectId}/sheets/`, ...(await oversizedImageForm()) });
    expect(answered(oversized)).toEqual({ status: 413, errors: { file: [SHEET_TOO_LARGE] } });
    expect(await ctx.app.db.select({ id: sheets.id }).from(sheets).orderBy(sheets.id)).toEqual(before);

    // A page of 200 × 200 m (PDF allows it with a user unit): made, then failed with its reason, no tiles.
    const huge = await upload(ctx.app, team.manager, work.projectId, await pdfOf([[14_400, 14_400]]), 'huge.pdf');
    const [hugeSheet] = huge.json<Sheet[]>();
    const truncated = await upload(ctx.app, team.manager, work.projectId, await truncatedJpeg(), 'cut.jpg', 'image/jpeg');
    const [cutSheet] = truncated.json<Sheet[]>();
    const [hugeDone, cutDone] = await rendered([hugeSheet!.id, cutSheet!.id]);
    expect(hugeDone).toMatchObject({ status: 'failed', failure: SHEET_PAGE_TOO_LARGE, tile_url_template: null });
    expect(cutDone).toMatchObject({ status: 'failed', failure: SHEET_IMAGE_DAMAGED });
    // Kept in English, read in the reader's own language.
    const readIn = async (language: string) => expect((await callAs(ctx.app, team.manager, { method: 'PATCH', url: '/api/profile/', payload: { language } })).statusCode).toBe(200);
    await readIn('de');
    const german = await callAs(ctx.app, team.manager, { method: 'GET', url: `/api/sheets/${cutSheet!.id}/` });
    await readIn('en');
    expect(german.json<Sheet>().failure).toBe('Das Bild ist beschädigt und kann nicht gelesen werden.');
  });

  it('decides on upload which page is a scan, and shows it as it was scanned, upright and at the size of the page', async () => {
    const file = await scannedPdf();
    const response = await upload(ctx.app, team.manager, work.projectId, file.pdf, 'Scan.pdf');
    const made = response.json<Sheet[]>();
    // Each page's job says what the upload's inspection found: the drawn page none, the scanned page
    // where its JPEG lies in the file, so rendering a page never reads the whole PDF again.
    const queued = await ctx.app.db.select({ payload: jobs.payload }).from(jobs).where(eq(jobs.queue, RENDER_QUEUE));
    const payloadOf = (sheetId: number) => queued.find(({ payload }) => (payload as RenderJob).sheetId === sheetId)?.payload as RenderJob;
    expect(payloadOf(made[0]!.id)).toEqual({ sheetId: made[0]!.id, scan: null });
    const verdict = payloadOf(made[1]!.id).scan!;
    expect(verdict).toEqual({ offset: expect.any(Number), length: file.scan.length, pageWidth: A3[0], pageHeight: A3[1] });
    expect(file.pdf.subarray(verdict.offset, verdict.offset + verdict.length).equals(file.scan)).toBe(true);

    const [, scan] = await rendered(made.map((sheet) => sheet.id));
    expect(scan).toMatchObject({ status: 'ready', failure: null });
    expect(scan!.width! * scan!.height!).toBeLessThanOrEqual(BUDGET);
    expect(scan!.width! * scan!.height!).toBeGreaterThan(BUDGET * 0.99);
    expect(scan!.width! / scan!.height!).toBeCloseTo(1191 / 842, 2);
    const preview = (await callAs(ctx.app, team.member, { method: 'GET', url: scan!.preview_url! })).rawPayload;
    expect(await meanOf(preview, [0.05, 0.05, 0.4, 0.4])).toBeLessThan(40);
    expect(await meanOf(preview, [0.55, 0.55, 0.4, 0.4])).toBeGreaterThan(220);
    const tile = await callAs(ctx.app, team.member, { method: 'GET', url: `/api/sheets/${scan!.id}/tiles/${scan!.max_level}/0_0.jpeg` });
    expect(await sharp(tile.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 256, height: 256, channels: 3 });
  });

  it('renders a page whose content pdf-lib cannot decode as PDF.js draws it, not as a failure', async () => {
    const response = await upload(ctx.app, team.manager, work.projectId, pdfWithUndecodableStream(), 'Lenient.pdf');
    expect(response.statusCode, response.body).toBe(202);
    const [sheet] = await rendered(response.json<Sheet[]>().map((made) => made.id));
    expect(sheet).toMatchObject({ status: 'ready', failure: null });
    const preview = (await callAs(ctx.app, team.member, { method: 'GET', url: sheet!.preview_url! })).rawPayload;
    // The diagonal of the stream PDF.js could read runs through the middle.
    expect(await meanOf(preview, [0.45, 0.45, 0.1, 0.1])).toBeLessThan(160);
  });

  it("shows a completed project's unfinished work on its sheet as closed unfinished: its real status, not open or overdue", async () => {
    // Ongoing and long overdue, sent for approval, approved: then the office completes the project (decision record 061).
    const site = await insertWork(ctx.app.db, team, { dueDate: '2020-01-10' });
    const sent = await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: site.majorTaskId, assignedToId: team.member.id, assignedById: team.manager.id, dueDate: '2099-01-10', status: 'pending_approval' });
    const done = await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: site.majorTaskId, assignedToId: team.member.id, assignedById: team.manager.id, dueDate: '2020-01-10', status: 'completed' });
    const image = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#ffffff' } }).png().toBuffer();
    const [sheet] = (await upload(ctx.app, team.manager, site.projectId, image, 'yard.png', 'image/png')).json<Sheet[]>();
    for (const [index, id] of [site.subtaskId, sent.id, done.id].entries()) {
      const pinned = await callAs(ctx.app, team.manager, { method: 'PATCH', url: `/api/subtasks/${id}/`, payload: { pin: { sheet_id: sheet!.id, x: 0.2 + index * 0.3, y: 0.5 } } });
      expect(pinned.statusCode, pinned.body).toBe(200);
    }
    const completed = await callAs(ctx.app, team.admin, { method: 'PATCH', url: `/api/projects/${site.projectId}/`, payload: { status: 'completed', confirm_open_work: true } });
    expect(completed.statusCode, completed.body).toBe(200);

    for (const caller of [team.manager, team.member]) {
      const pins = (await callAs(ctx.app, caller, { method: 'GET', url: `/api/sheets/${sheet!.id}/pins/` })).json<SheetPin[]>();
      const closedAt = (id: number) => callAs(ctx.app, caller, { method: 'GET', url: `/api/subtasks/${id}/` }).then((answer) => answer.json<Subtask>().closed_unfinished_at);
      expect(pins.map(({ subtask_id, status, closed_unfinished_at, may_move }) => ({ subtask_id, status, closed_unfinished_at, may_move }))).toEqual([
        { subtask_id: site.subtaskId, status: 'ongoing', closed_unfinished_at: await closedAt(site.subtaskId), may_move: false },
        { subtask_id: sent.id, status: 'pending_approval', closed_unfinished_at: await closedAt(sent.id), may_move: false },
        { subtask_id: done.id, status: 'completed', closed_unfinished_at: null, may_move: false },
      ]);
      expect(pins[0]!.closed_unfinished_at).toEqual(expect.any(String));
      // What the viewer draws from it: closed work as closed, never as ongoing, pending or overdue.
      expect(pins.map((pin) => pinColour(pin, '2026-11-27'))).toEqual(['closed_unfinished', 'closed_unfinished', 'completed']);
    }
  });

  it("keeps a completed project's drawings read-only", async () => {
    const done = await insertWork(ctx.app.db, team, { projectStatus: 'completed' });
    const response = await upload(ctx.app, team.manager, done.projectId, await pdfOf([A3]), 'late.pdf');
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toBe(COMPLETED_PROJECT_SHEETS_READ_ONLY);
  });
  },
  // A band of a page's raster of ~1 MB: every PDF page here is drawn in several.
  { sheetPixelBudget: BUDGET, sheetRenderMemoryBytes: 1_000_000 },
);

/** Where the restart suite's two instances keep their files: the same folder, as on one server. */
const restartDir = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-sheets-restart-'));
// Made when the file loads: gone after it too, when its test failed or was not run.
afterAll(() => fs.rmSync(restartDir, { recursive: true, force: true }));
/** Large enough that the page is still rendering when the first instance stops. */
const restartOptions = { sheetsDir: restartDir, sheetPixelBudget: 12_000_000 };

describeEachDatabase(
  'drawings: a restart in the middle of rendering',
  (ctx) => {
    it('finishes the job after the restart, with nothing half-made left', { timeout: 120_000 }, async () => {
      const team = await createTeam(ctx.app);
      const work = await insertWork(ctx.app.db, team);
      const response = await upload(ctx.app, team.manager, work.projectId, await pdfOf([A3]), 'restart.pdf');
      const [sheet] = response.json<Sheet[]>();
      await expect.poll(async () => (await ctx.app.db.select({ status: jobs.status }).from(jobs).where(eq(jobs.queue, RENDER_QUEUE)))[0]?.status, { timeout: 30_000 }).toBe('running');
      // Stopped while the page renders: the job is queued again, the sheet still processing, no half-made tiles.
      await ctx.app.close();
      expect((await ctx.database.db.select({ status: sheets.status }).from(sheets).where(eq(sheets.id, sheet!.id)))[0]?.status).toBe('processing');
      expect(fs.readdirSync(restartDir).filter((name) => name !== 'sources')).toEqual([]);

      // The next instance (the suite closes it) finishes the job: at the small budget, as it need not be stopped.
      ctx.app = await buildTestApp({ ...restartOptions, sheetPixelBudget: BUDGET, database: ctx.database, jwtSecret: TEST_JWT_SECRET });
      await ctx.app.ready();
      await ctx.app.jobs.idle([RENDER_QUEUE], 90_000);
      const ready = await callAs(ctx.app, team.manager, { method: 'GET', url: `/api/sheets/${sheet!.id}/` });
      expect(ready.json<SheetDetail>()).toMatchObject({ status: 'ready' });
      expect(fs.readdirSync(restartDir).sort()).toEqual([String(sheet!.id), 'sources']);
      expect(fs.readdirSync(path.join(restartDir, 'sources'))).toEqual([]);
      fs.rmSync(restartDir, { recursive: true });
    });
  },
  restartOptions,
);
