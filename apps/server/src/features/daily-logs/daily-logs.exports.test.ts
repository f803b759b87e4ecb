import { parse } from 'csv-parse/sync';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import { formatDateOnly, t, type MessageKey } from '@siteboard/shared';
import { companies } from '../../schema/companies';
import { users } from '../../schema/users';
import { describeEachDatabase } from '../../test/build-app';
import { createUser, loginAs } from '../../test/factories';
import { readPdf, readPdfLines } from '../../test/pdf-text';
import { THUMBNAILS_AT_ONCE } from './daily-logs.pdf';
import { callAs, createTeam, insertProject, insertMajorTask, insertSubtask, type Caller, type Team } from '../../test/work-factories';

const MANAGER_NAME = 'Ирина Соколова';
const LONG_NAME = 'Anna-Katharina Maximiliane von Hohenzollern-Sigmaringen-Veringen';
const PROJECT_NAME = '港口大桥 Harbour Bridge';
const DAY = '2025-04-07';
const NEXT_DAY = '2025-04-08';
/** Enough crew to run the table over a page, and to bring a later table's header near a page's foot. */
const CREW_ROWS = Number(process.env.CREW_ROWS ?? 40);

describeEachDatabase('daily log PDF, CSV and Excel', (ctx) => {
  let team: Team;
  let projectId: number;

  const download = async (caller: Caller, url: string) => {
    const response = await callAs(ctx.app, caller, { method: 'GET', url });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    return response;
  };

  beforeAll(async () => {
    team = await createTeam(ctx.app);
    await ctx.app.db.update(users).set({ fullName: MANAGER_NAME, timezone: 'Europe/Berlin' }).where(eq(users.id, team.manager.id));
    await ctx.app.db.update(users).set({ fullName: 'Tomás Ruiz', designation: 'Carpenter' }).where(eq(users.id, team.member.id));
    projectId = (await insertProject(ctx.app.db, team.company.id, { managerId: team.manager.id, name: PROJECT_NAME })).id;
    const majorTask = await insertMajorTask(ctx.app.db, team.company.id, projectId);
    await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: majorTask.id, assignedToId: team.member.id, assignedById: team.manager.id });
    const put = (date: string, payload: object) => callAs(ctx.app, team.manager, { method: 'PUT', url: `/api/projects/${projectId}/daily-logs/${date}/`, payload });
    expect(
      (
        await put(DAY, {
          weather: { conditions: 'Overcast, rain from 14:00 with strong gusts', temperature: 18, wind: 'NW 10 km/h', precipitation: null, work_stopped: false },
          crew: [
            { trade: 'Concrete', company: 'Бетон-Строй', headcount: 5, hours: 8 },
            { trade: 'Electrical', company: 'Volt & Co', headcount: 2, hours: 7.5 },
          ],
          equipment: [{ name: 'Excavator CAT 320', hours: 5 }],
          deliveries: [{ what: '40 m³ ready-mix', from: 'Betonwerk Nord' }],
          delays: [{ cause: 'Pump breakdown', hours_lost: 1.5 }],
          incidents: [{ kind: 'incident', description: 'Minor cut, first aid given' }],
          visitors: [{ name: 'Owner’s rep', company: 'City of Hamburg', purpose: 'Walkthrough' }],
          notes: 'Slab pour 2 finished at 16:40.',
        })
      ).statusCode,
    ).toBe(200);
    expect((await put(NEXT_DAY, { crew: [{ trade: 'Concrete', company: 'Бетон-Строй', headcount: 3, hours: 8 }], delays: [{ cause: 'Rain', hours_lost: 2 }] })).statusCode).toBe(200);
    const entry = await callAs(ctx.app, team.member, { method: 'POST', url: `/api/projects/${projectId}/daily-logs/${DAY}/entries/`, payload: { hours: 6, note: 'Cut and fixed formwork edges' } });
    expect(entry.statusCode).toBe(201);
    // A note moved here from the day before, whose log was signed while the phone had no signal.
    const moved = await callAs(ctx.app, team.member, { method: 'POST', url: `/api/projects/${projectId}/daily-logs/${DAY}/entries/?for_date=2025-04-06`, payload: { note: 'Stripped formwork, bay 2' } });
    expect(moved.statusCode).toBe(201);
    const slab = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#a0522d' } }).png().toBuffer();
    const addPhoto = async (caller: Caller, query = '') => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(slab)], { type: 'image/png' }), 'slab.png');
      const encoded = new Response(form);
      const photo = await callAs(ctx.app, caller, {
        method: 'POST',
        url: `/api/projects/${projectId}/daily-logs/${DAY}/attachments/${query}`,
        payload: Buffer.from(await encoded.arrayBuffer()),
        headers: { 'content-type': encoded.headers.get('content-type')! },
      });
      expect(photo.statusCode).toBe(201);
    };
    // Moved here from the day before, whose log was signed while the phone had no signal.
    await addPhoto(team.member, '?for_date=2025-04-06');
    // A photo whose caption takes more than two lines under its thumbnail.
    await ctx.app.db.update(users).set({ fullName: LONG_NAME }).where(eq(users.id, team.admin.id));
    await addPhoto(team.admin);
    expect((await callAs(ctx.app, team.manager, { method: 'POST', url: `/api/projects/${projectId}/daily-logs/${DAY}/sign/` })).statusCode).toBe(200);
    expect(
      (await callAs(ctx.app, team.manager, { method: 'POST', url: `/api/projects/${projectId}/daily-logs/${DAY}/amendments/`, payload: { reason: 'Pump was down 2 hours', changes: 'Delay: 2 hours lost, not 1.5' } })).statusCode,
    ).toBe(201);
  });

  it("a busy day's PDF shows every photo, its thumbnails read a batch at a time as they are written", async () => {
    const busyDay = '2025-03-03';
    const photos = THUMBNAILS_AT_ONCE * 2 + 3;
    expect((await callAs(ctx.app, team.manager, { method: 'PUT', url: `/api/projects/${projectId}/daily-logs/${busyDay}/`, payload: { notes: 'Facade inspection' } })).statusCode).toBe(200);
    // Copies of the photo taken on DAY (uploading a hundred would take the test's time, not the PDF's).
    await ctx.app.db.execute(sql`
      with copies as (
        insert into daily_log_attachments (company_id, daily_log_id, uploaded_by_id, content_type, size, width, height)
        select a.company_id, (select id from daily_logs where project_id = ${projectId} and log_date = ${busyDay}), a.uploaded_by_id, a.content_type, a.size, a.width, a.height
        from daily_log_attachments a cross join generate_series(1, ${photos})
        where a.id = (select min(id) from daily_log_attachments where company_id = ${team.company.id})
        returning id
      )
      insert into daily_log_attachment_data (attachment_id, image, thumbnail)
      select copies.id, d.image, d.thumbnail from copies, daily_log_attachment_data d
      where d.attachment_id = (select min(id) from daily_log_attachments where company_id = ${team.company.id})`);
    ctx.queries.length = 0;
    const { images } = await readPdf((await download(team.manager, `/api/projects/${projectId}/daily-logs/${busyDay}/pdf/`)).rawPayload);
    expect(images).toBe(photos);
    // No statement holds more than a batch of thumbnails: the PDF's memory does not grow with the day's photos.
    const thumbnailReads = ctx.queries.filter((query) => query.includes('"daily_log_attachment_data"."thumbnail"'));
    expect(thumbnailReads).toHaveLength(3);
    for (const read of thumbnailReads) expect(read.match(/\$\d+/g)!.length).toBeLessThanOrEqual(THUMBNAILS_AT_ONCE + 1);
  });

  it("a day's PDF has every section, the non-Latin names as written, the photo, the amendment and the signature", async () => {
    const response = await download(team.member, `/api/projects/${projectId}/daily-logs/${DAY}/pdf/`);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="siteboard-daily-log-${projectId}-${DAY}.pdf"`);
    const { pages, images } = await readPdf(response.rawPayload);
    const text = pages.join(' ');
    for (const expected of [
      'Daily Log',
      PROJECT_NAME,
      'Monday, April 7, 2025',
      'SIGNED',
      'Weather',
      // Whole, on as many lines as it takes: a signed record never cuts what was written.
      'Overcast, rain from 14:00 with strong gusts',
      '18 °C',
      'Crew on site',
      'Concrete Бетон-Строй 5 8 40',
      'Electrical Volt & Co 2 7.5 15',
      'Tomás Ruiz 6 Cut and fixed formwork edges',
      'Head count: 8 · Man-hours: 61',
      'Excavator CAT 320 5',
      '40 m³ ready-mix Betonwerk Nord',
      'Pump breakdown 1.5',
      'Incident Minor cut, first aid given',
      'Owner’s rep City of Hamburg Walkthrough',
      'Slab pour 2 finished at 16:40.',
      'Amendments',
      'Reason: Pump was down 2 hours',
      'Changes: Delay: 2 hours lost, not 1.5',
      `Signed by ${MANAGER_NAME}`,
      'Signature',
      `Page 1 of ${pages.length}`,
      // The manager's zone as people name it, on that day's clock.
      'Times in Berlin (UTC+02:00)',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).toContain(`Amendment 1 · ${new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date())}`);
    expect(images).toBe(2);
    // Every photo's caption whole: who took it and when, however long the name.
    // Its one long word is broken after one of its own hyphens, not cut.
    expect(text).toMatch(/Hohenzollern-Sigmaringen- ?Veringen · \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    // A photo moved from the day before says that day first, and so does a crew entry.
    expect(text).toMatch(/For 2025-04-06 · .+ · \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    expect(text).toContain('Tomás Ruiz For 2025-04-06 · Stripped formwork, bay 2');
  });

  it("a range's PDF sums the days up, man-hours by trade and company included, then shows each logged day", async () => {
    const response = await download(team.admin, `/api/projects/${projectId}/daily-logs/pdf/?from=2025-04-06&to=2025-04-08`);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="siteboard-daily-logs-${projectId}-2025-04-06-2025-04-08.pdf"`);
    const { pages } = await readPdf(response.rawPayload);
    expect(pages[0]).toContain('Daily logs');
    expect(pages[0]).toContain('2025-04-06 to 2025-04-08');
    expect(pages[0]).toContain('2025-04-06 No log');
    expect(pages[0]).toContain('2025-04-07 Signed 8 61 1.5');
    expect(pages[0]).toContain('2025-04-08 Draft 3 24 2');
    expect(pages[0]).toContain('Total 11 85 3.5');
    expect(pages[0]).toContain('Carpenter');
    expect(pages[0]).toContain('Concrete Бетон-Строй 8 64');
    expect(pages[0]).toContain('Hours lost to delays: 3.5');
    expect(pages[0]).toContain('Times in Berlin (UTC+02:00)');
    expect(pages[0]).not.toContain('Europe/Berlin');
    expect(pages.join(' ')).toContain('Tuesday, April 8, 2025');
    const tooLong = await callAs(ctx.app, team.admin, { method: 'GET', url: `/api/projects/${projectId}/daily-logs/pdf/?from=2025-01-01&to=2025-04-08` });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().errors).toEqual({ from: ['A range covers at most 31 days.'] });
  });

  it("the PDF speaks its reader's language", async () => {
    const german = await createUser(ctx.app.db, team.company.id, 'admin', { language: 'de' });
    const { access } = await loginAs(ctx.app, german);
    const { pages } = await readPdf((await download({ ...german, access }, `/api/projects/${projectId}/daily-logs/${DAY}/pdf/`)).rawPayload);
    const text = pages.join(' ');
    expect(text).toContain('Bautagebuch');
    expect(text).toContain('Montag, 7. April 2025');
    expect(text).toContain('Personal auf der Baustelle');
    expect(text).toContain('Electrical Volt & Co 2 7,5 15');
    expect(text).toContain(`Unterschrieben von ${MANAGER_NAME}`);
    expect(text).toContain(`Tomás Ruiz ${t('de', 'For {date}', { date: formatDateOnly('2025-04-06', 'de') })} · Stripped formwork, bay 2`);
    expect(text).toContain('Zeiten in Berlin (UTC+02:00)');
  });

  it('a long day in German: every name whole, on as many lines as it takes, and no header row left alone at the foot of a page', async () => {
    const site = await createTeam(ctx.app);
    const project = 'Generalsanierung Grundschulzentrum Donaudampfschifffahrtsgesellschaftskapitänswitwenstraße 117–121, Bauabschnitt Nordflügel mit Turnhallenerweiterung';
    const company = `Arbeitsgemeinschaft Hochwasserschutzertüchtigung Mittelrhein-Süd Bauunternehmung GmbH & Co. KG ${site.company.id}`;
    await ctx.app.db.update(companies).set({ name: company }).where(eq(companies.id, site.company.id));
    const id = (await insertProject(ctx.app.db, site.company.id, { managerId: site.manager.id, name: project })).id;
    const long = (word: string) => `${word} ${'Bewehrungsstahlverlegearbeiten '.repeat(5)}Ende`;
    const crew = Array.from({ length: CREW_ROWS }, (_, index) => ({ trade: `Elektroinstallationsfachbetriebsmeisterin ${index + 1}`, company: 'Gebäudeautomatisierungstechnik Süd', headcount: 2, hours: 8 }));
    const put = await callAs(ctx.app, site.manager, {
      method: 'PUT',
      url: `/api/projects/${id}/daily-logs/${DAY}/`,
      payload: {
        crew,
        equipment: [{ name: long('Raupenbagger'), hours: 5 }],
        deliveries: [{ what: long('Betonstahlmatten'), from: 'Stahlhandelsgesellschaft' }],
        delays: [{ cause: long('Betonpumpenausfall'), hours_lost: 2 }],
        incidents: [{ kind: 'incident', description: long('Schnittverletzung') }],
        visitors: [{ name: 'Bauherrenvertreterin', company: 'Stadtentwässerungsbetriebe', purpose: long('Baustellenbegehung') }],
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    const german = await createUser(ctx.app.db, site.company.id, 'admin', { language: 'de' });
    const { access } = await loginAs(ctx.app, german);
    const pdf = (await download({ ...german, access }, `/api/projects/${id}/daily-logs/${DAY}/pdf/`)).rawPayload;
    // What a page says between its running title and its footer (each whole over as many lines as it takes: tested below).
    const pages = (await readPdfLines(pdf)).map((lines) => lines.filter((line) => line.top > 50 && line.top < 795));
    const text = pages.flat().map((line) => line.text);
    // A word broken at the end of a line carries a hyphen; read back without hyphens and spaces, every name is whole.
    const squash = (words: string) => words.replace(/[\s-]/g, '');
    // The text in the order it is written (a column's lines one after another).
    const written = (await readPdf(pdf)).pages.map(squash);
    expect(written[0]).toContain(squash(project));
    expect(written[0]).toContain(squash(company));
    for (const row of crew) expect(written.join('')).toContain(squash(row.trade));
    for (const word of ['Raupenbagger', 'Betonstahlmatten', 'Betonpumpenausfall', 'Schnittverletzung', 'Baustellenbegehung']) expect(written.join('')).toContain(squash(long(word)));
    expect(text.filter((line) => line.includes('…'))).toEqual([]);
    // A header row always has a row under it on its page, and comes again on each page its table goes on to.
    const header = (titles: MessageKey[]) => titles.map((title) => t('de', title)).join(' ');
    const headers = [
      header(['Trade', 'Company', 'Head count', 'Hours', 'Man-hours']),
      header(['Equipment', 'Hours']),
      header(['What', 'Supplier']),
      header(['Cause', 'Hours lost']),
      header(['Kind', 'Description']),
      header(['Visitor', 'Company', 'Purpose']),
    ];
    expect(pages.length).toBeGreaterThan(2);
    pages.forEach((lines, index) => expect(headers, `page ${index + 1}`).not.toContain(lines.at(-1)!.text));
    expect(pages[1]![0]!.text).toBe(headers[0]);
  });

  it("a long project's pages: the running title and footer whole, the crew's totals line kept with the table's last row", async () => {
    const site = await createTeam(ctx.app);
    // The part that tells this site from its neighbour is at the end of its name: a running title cut short would hide it.
    const project = `Generalsanierung und Erweiterung Grundschulzentrum Donaudampfschifffahrtsgesellschaftskapitänswitwenstraße 117–121 mit Turnhalle, Mensa und Außenanlagen, Bauabschnitt 3 Nordflügel ${site.company.id}`;
    const company = `Arbeitsgemeinschaft Hochwasserschutzertüchtigung Mittelrhein-Süd Bauunternehmung GmbH & Co. KG ${site.company.id}`;
    await ctx.app.db.update(companies).set({ name: company }).where(eq(companies.id, site.company.id));
    const id = (await insertProject(ctx.app.db, site.company.id, { managerId: site.manager.id, name: project })).id;
    const german = await createUser(ctx.app.db, site.company.id, 'admin', { language: 'de' });
    const reader = { ...german, access: (await loginAs(ctx.app, german)).access };
    const pdfWithCrew = async (rows: number) => {
      const crew = Array.from({ length: rows }, (_, index) => ({ trade: `Gewerk ${index + 1}`, company: 'Firma', headcount: 1, hours: 8 }));
      const put = await callAs(ctx.app, site.manager, { method: 'PUT', url: `/api/projects/${id}/daily-logs/${DAY}/`, payload: { crew } });
      expect(put.statusCode, put.body).toBe(200);
      return readPdfLines((await download(reader, `/api/projects/${id}/daily-logs/${DAY}/pdf/`)).rawPayload);
    };
    const content = (lines: { top: number; text: string }[]) => lines.filter((line) => line.top > 50 && line.top < 795);
    const crewRow = /^Gewerk \d+ Firma/;

    // As many crew rows as the first page holds: the last ends at the page's foot, where no line fits under it.
    const rowsOnFirstPage = content((await pdfWithCrew(60))[0]!).filter((line) => crewRow.test(line.text)).length;
    expect(rowsOnFirstPage).toBeGreaterThan(10);
    const pages = await pdfWithCrew(rowsOnFirstPage);
    const totals = t('de', 'Head count: {count} · Man-hours: {hours}', { count: String(rowsOnFirstPage), hours: String(rowsOnFirstPage * 8) });
    const onPage = pages.findIndex((lines) => lines.some((line) => line.text === totals));
    expect(onPage, 'the totals line is in the PDF').toBeGreaterThanOrEqual(0);
    const body = content(pages[onPage]!);
    const at = body.findIndex((line) => line.text === totals);
    expect(at, `the totals line starts page ${onPage + 1}`).toBeGreaterThan(0);
    expect(body[at - 1]!.text).toMatch(crewRow);

    // Every page after the first is headed by its running title and every page has its footer, each whole, over two lines if it takes them.
    expect(pages.length).toBeGreaterThan(1);
    const runningTitle = t('de', 'Daily Log · {project} · {date}', { project, date: formatDateOnly(DAY, 'de') });
    pages.forEach((lines, index) => {
      const page = `page ${index + 1}`;
      const above = lines.filter((line) => line.top < 50).map((line) => line.text);
      if (index > 0) {
        expect(above.join(' '), page).toBe(runningTitle);
        expect(above.length, page).toBe(2);
      }
      const below = lines.filter((line) => line.top >= 795).map((line) => line.text.replace(` Seite ${index + 1} von ${pages.length}`, ''));
      expect(below.join(' '), page).toBe(`${company} · ${project}`);
      expect(lines.filter((line) => line.text.includes('…')).map((line) => line.text), page).toEqual([]);
    });
  });

  it('the CSV has every line of the range, then man-hours by trade and company and the hours lost', async () => {
    const response = await download(team.manager, `/api/projects/${projectId}/daily-logs/?from=2025-04-06&to=2025-04-08&format=csv`);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="siteboard-daily-logs-${projectId}-2025-04-06-2025-04-08.csv"`);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = parse(response.body.replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
    expect(rows.filter((row) => row.Date === DAY).map((row) => row.Section)).toEqual(['weather', 'crew', 'crew', 'entry', 'entry', 'equipment', 'delivery', 'delay', 'incident', 'visitor', 'notes']);
    expect(rows.find((row) => row.Section === 'entry')).toMatchObject({
      Person: team.member.email,
      'Person Name': 'Tomás Ruiz',
      Trade: 'Carpenter',
      Hours: '6',
      'Man-hours': '6',
      Description: 'Cut and fixed formwork edges',
      'Work date': DAY,
      'Signed by': team.manager.email,
      'Signed by (name)': MANAGER_NAME,
    });
    // The moved note carries the day it was for, not the log's.
    expect(rows.find((row) => row.Description === 'Stripped formwork, bay 2')).toMatchObject({ Section: 'entry', Date: DAY, 'Work date': '2025-04-06', Hours: '' });
    // A visitor has no e-mail: their name alone, in the name column.
    expect(rows.find((row) => row.Section === 'visitor')).toMatchObject({ Person: '', 'Person Name': 'Owner’s rep', Company: 'City of Hamburg' });
    const totals = rows.filter((row) => row.Section.startsWith('total_')).map((row) => [row.Section, row.Trade, row.Company, row['Head count'], row['Man-hours'], row['Hours lost']]);
    expect(totals).toEqual([
      ['total_man_hours', 'Carpenter', team.company.name, '1', '6', ''],
      ['total_man_hours', 'Electrical', 'Volt & Co', '2', '15', ''],
      ['total_man_hours', 'Concrete', 'Бетон-Строй', '8', '64', ''],
      ['total_hours_lost', '', '', '', '', '3.5'],
    ]);
  });

  it("the Excel workbook writes when a day was signed on the reader's clock, not the project's", async () => {
    // The project counts its days in its manager's Berlin; this reader lives in Kolkata (UTC+05:30 all year).
    await ctx.app.db.update(users).set({ timezone: 'Asia/Kolkata' }).where(eq(users.id, team.member.id));
    try {
      const day = await download(team.member, `/api/projects/${projectId}/daily-logs/${DAY}/`);
      const signedAt = new Date((day.json() as { signed_at: string }).signed_at);
      const response = await download(team.member, `/api/projects/${projectId}/daily-logs/?from=${DAY}&to=${DAY}&format=xlsx`);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
      const signedCell = workbook.getWorksheet('Daily logs')!.getRow(2).getCell(4);

      // A cell has no zone: it holds the reader's wall clock, to the second.
      expect(signedCell.value).toEqual(new Date(Math.floor(signedAt.getTime() / 1000) * 1000 + 330 * 60_000));
      expect(signedCell.numFmt).toMatch(/h/);
    } finally {
      await ctx.app.db.update(users).set({ timezone: null }).where(eq(users.id, team.member.id));
    }
  });

  it('the Excel workbook has the days, crew and delays with total rows, and totals by trade and company', async () => {
    const response = await download(team.manager, `/api/projects/${projectId}/daily-logs/?from=2025-04-06&to=2025-04-08&format=xlsx`);
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="siteboard-daily-logs-${projectId}-2025-04-06-2025-04-08.xlsx"`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Daily logs', 'Crew', 'Delays', 'Site record', 'Totals']);
    const values = (sheet: string) => workbook.getWorksheet(sheet)!.getSheetValues().slice(1).map((row) => (row as unknown[] | undefined)?.slice(1));

    const days = values('Daily logs');
    expect(days[0]).toEqual(['Date', 'Status', 'Signed by', 'Signed at', 'Conditions', 'Temperature (°C)', 'Work stopped', 'Head count', 'Man-hours', 'Hours lost']);
    expect(days[1]!.slice(0, 3)).toEqual([new Date('2025-04-07T00:00:00Z'), 'Signed', MANAGER_NAME]);
    expect(days[1]!.slice(4)).toEqual(['Overcast, rain from 14:00 with strong gusts', 18, 'No', 8, 61, 1.5]);
    expect(days.at(-1)).toEqual(['Total', undefined, undefined, undefined, undefined, undefined, undefined, 11, 85, 3.5]);
    expect(values('Crew').at(-1)).toEqual(['Total', undefined, undefined, undefined, 11, undefined, 85]);
    expect(values('Crew').find((row) => row?.[3] === 'Tomás Ruiz')?.at(-1)).toEqual(new Date(`${DAY}T00:00:00Z`));
    expect(values('Site record').filter((row) => row?.[1] === 'Crew entries')).toEqual([
      [new Date(`${DAY}T00:00:00Z`), 'Crew entries', 'Cut and fixed formwork edges', 'Tomás Ruiz'],
      [new Date(`${DAY}T00:00:00Z`), 'Crew entries', 'Stripped formwork, bay 2', 'Tomás Ruiz · For 2025-04-06'],
    ]);
    expect(values('Delays').at(-1)).toEqual(['Total', undefined, 3.5]);
    expect(values('Totals')).toEqual([
      ['Trade', 'Company', 'Person-days', 'Man-hours'],
      ['Carpenter', team.company.name, 1, 6],
      ['Electrical', 'Volt & Co', 2, 15],
      ['Concrete', 'Бетон-Строй', 8, 64],
      ['Total', undefined, 11, 85],
      undefined,
      ['Hours lost to delays', undefined, undefined, 3.5],
    ]);
  });
});
