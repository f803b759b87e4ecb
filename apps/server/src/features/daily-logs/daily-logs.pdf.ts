import {
  datesOf,
  describeTimeZone,
  formatDateOnly,
  formatNumber,
  hoursLost,
  LOCALE_TAGS,
  t,
  type DailyLog,
  type DailyLogContent,
  type DailyLogSection,
  type Language,
  type MessageKey,
  type MessageParams,
  type WorkKind,
  formatCalendarDate,
  formatWallClock,
  localDateTime,
} from '@siteboard/shared';
import { BOTTOM, CONTENT_WIDTH, footers, INK, LEFT, MARGIN, MUTED, openA4, PAGE, PANEL, RIGHT, RULE, wrapLines, write, type Doc } from '../../lib/pdf';
import { type TradeTotal } from './daily-logs.rules';

/** Noon of a day in UTC: the instant whose offset names that day's clock in the header. */
const middayOf = (date: string) => new Date(`${date}T12:00:00Z`);

export interface ThumbnailIds {
  log: number[];
  work: number[];
}

/**
 * Thumbnails are read this many at a time as the photo section is written, and each is written
 * out when drawn: a busy month's PDF never holds all of its photos in memory at once.
 */
export const THUMBNAILS_AT_ONCE = 48;

export interface DailyLogPdfInput {
  companyName: string;
  projectName: string;
  /** The project's zone: every time is written as its wall clock there. */
  zone: string;
  /** When it was made, in the zone (`YYYY-MM-DD HH:MM`). */
  generatedAt: string;
  language: Language;
  /** A range's PDF opens with a summary of its days; one day's has none. */
  range: { from: string; to: string } | null;
  logs: DailyLog[];
  /** A range's man-hours by trade and company (people's own hours under their trade). */
  trades: TradeTotal[];
  /** Reads the thumbnails of these photos, by id: the logs' own photos and the day's work's (a photo gone since is missing). */
  thumbnails: (ids: ThumbnailIds) => Promise<Record<keyof ThumbnailIds, Map<number, Buffer>>>;
}

const HEADER_FILL = '#e2e8f0';
const SIGNED = '#15803d';
const DRAFT = '#b45309';
const AMENDED = '#7e22ce';

const LINE = 11;
const HEADER_LINE = 9.5;
/** The line height of a running title that takes more than one line. */
const RUNNING_LINE = 9.5;
/** Where a page after a day's first starts, under its running title. */
const PAGE_TOP = MARGIN.top + 4;
const CELL_PADDING = 5;
/** The space under a table. */
const TABLE_GAP = 12;
const TEXT_SIZE = 8.5;

/** How the PDF writes words, dates, times and numbers for its reader; English keeps ISO dates. */
interface Wording {
  t(key: MessageKey, params?: MessageParams): string;
  date(date: string): string;
  fullDate(date: string): string;
  time(iso: string): string;
  /** A wall-clock time already in the project's zone (`YYYY-MM-DD HH:MM`). */
  wallClock(local: string): string;
  number(value: number): string;
}

function wordingFor(language: Language, zone: string): Wording {
  const tag = LOCALE_TAGS[language];
  const english = language === 'en';
  const wallClock = (local: string) => (english ? local : formatWallClock(local, tag));
  return {
    t: (key, params) => t(language, key, params),
    date: (date) => formatDateOnly(date, language),
    fullDate: (date) => formatCalendarDate(date, tag, 'full'),
    time: (iso) => wallClock(localDateTime(iso, zone)),
    wallClock,
    number: (value) => (english ? String(value) : formatNumber(value, language, { maximumFractionDigits: 2 })),
  };
}

const WORK_KIND: Record<WorkKind, MessageKey> = {
  sent_for_approval: 'Sent for approval',
  approved: 'Approved',
  declined: 'Declined',
  completed: 'Completed|status',
  photo: 'Photo',
};

const SECTION_TITLE: Record<DailyLogSection, MessageKey> = {
  weather: 'Weather',
  crew: 'Crew on site',
  equipment: 'Equipment',
  deliveries: 'Deliveries',
  delays: 'Delays',
  incidents: 'Incidents and safety observations',
  visitors: 'Visitors',
  notes: 'Notes',
};

type Person = { email: string; full_name: string | null } | null;
const nameOf = (person: Person, w: Wording) => (person ? (person.full_name ?? person.email) : w.t('N/A'));

interface Column {
  title: MessageKey;
  width: number;
  align?: 'left' | 'right';
}
type Cell = string | { text: string; bold?: boolean; color?: string };
const cellText = (cell: Cell) => (typeof cell === 'string' ? cell : cell.text);

/** Where the next thing is drawn, and the page breaks on the way. */
class Pages {
  y = MARGIN.top;
  /** The running title of the pages after a day's first. */
  runningTitle = '';

  constructor(
    readonly doc: Doc,
    readonly w: Wording,
  ) {}

  /**
   * A page after a day's first, under its running title: the whole title (a long project name is
   * what tells two sites apart), on as many lines as it takes, its last line just above the rule.
   */
  newPage() {
    this.doc.addPage();
    const lines = wrapLines(this.doc, this.runningTitle, { size: 8, width: CONTENT_WIDTH });
    lines.forEach((line, index) => write(this.doc, line, LEFT, 30 - (lines.length - 1 - index) * RUNNING_LINE, { size: 8, color: MUTED, width: CONTENT_WIDTH }));
    this.doc.moveTo(LEFT, 44).lineTo(RIGHT, 44).lineWidth(0.5).strokeColor(RULE).stroke();
    this.y = PAGE_TOP;
  }

  /** A heading waiting for what comes under it: it is drawn with that, on the same page. */
  private heading: { height: number; draw: () => void } | undefined;

  /** Makes room for `height` on this page (and for the heading waiting above it), or starts the next. */
  room(height: number) {
    const heading = this.heading;
    this.heading = undefined;
    if (this.y + (heading?.height ?? 0) + height > BOTTOM) this.newPage();
    heading?.draw();
  }

  /** A title never ends a page: it is drawn with the first thing under it. */
  sectionTitle(title: string) {
    this.heading = {
      height: 25,
      draw: () => {
        write(this.doc, title, LEFT, this.y, { bold: true, size: 12, width: CONTENT_WIDTH });
        this.doc
          .moveTo(LEFT, this.y + 17)
          .lineTo(RIGHT, this.y + 17)
          .lineWidth(0.75)
          .strokeColor(RULE)
          .stroke();
        this.y += 25;
      },
    };
  }

  /** A table's caption inside a section, kept with the table's first row as a title is. */
  subtitle(title: string) {
    this.heading = {
      height: 16,
      draw: () => {
        write(this.doc, title, LEFT, this.y, { bold: true, size: 9.5, width: CONTENT_WIDTH });
        this.y += 16;
      },
    };
  }

  /** A quiet line; `keepWith` as for a table. */
  muted(text: string, keepWith = 0) {
    this.room(LINE + 8 + keepWith);
    write(this.doc, text, LEFT, this.y, { size: TEXT_SIZE, color: MUTED, width: CONTENT_WIDTH });
    this.y += LINE + 8;
  }

  /** The height `paragraph` takes for this text. */
  paragraphHeight(text: string, options: { bold?: boolean; indent?: number } = {}) {
    return wrapLines(this.doc, text, { size: TEXT_SIZE, width: CONTENT_WIDTH - (options.indent ?? 0), bold: options.bold }).length * LINE + 4;
  }

  /** Free text, wrapped, across pages if it must. */
  paragraph(text: string, options: { bold?: boolean; color?: string; indent?: number } = {}) {
    const indent = options.indent ?? 0;
    for (const line of wrapLines(this.doc, text, { size: TEXT_SIZE, width: CONTENT_WIDTH - indent, bold: options.bold })) {
      this.room(LINE);
      write(this.doc, line, LEFT + indent, this.y, { size: TEXT_SIZE, bold: options.bold, color: options.color, width: CONTENT_WIDTH - indent });
      this.y += LINE;
    }
    this.y += 4;
  }

  /** The header row's titles, each on as many lines as it takes, and the row's height. */
  private headerOf(columns: Column[]) {
    // A title's word is never broken: one too wide for its column gets smaller instead (`shrink`).
    const titles = columns.map((column) => wrapLines(this.doc, this.w.t(column.title), { bold: true, size: 8, width: column.width - 2 * CELL_PADDING, keepWords: true }));
    return { titles, height: 17 + (Math.max(...titles.map((lines) => lines.length)) - 1) * HEADER_LINE };
  }

  private tableHeader(columns: Column[], header: { titles: string[][]; height: number }) {
    this.doc.rect(LEFT, this.y, CONTENT_WIDTH, header.height).fill(HEADER_FILL);
    let x = LEFT;
    columns.forEach((column, index) => {
      header.titles[index]!.forEach((line, lineIndex) =>
        write(this.doc, line, x + CELL_PADDING, this.y + 5 + lineIndex * HEADER_LINE, { bold: true, size: 8, width: column.width - 2 * CELL_PADDING, align: column.align, shrink: true }),
      );
      x += column.width;
    });
    this.y += header.height;
  }

  /**
   * Rows under a header row; cells wrap; a total row in bold. The header row never ends a page: it
   * starts on a page with room for the first row under it too, and comes again on each page the
   * table goes on to. A row taller than a page goes on on the next, line by line. `keepWith` is
   * the height of what comes right under the table (a totals line): the last row goes to the next
   * page with it rather than leave it alone at the top of a page.
   */
  table(columns: Column[], rows: Cell[][], total?: Cell[], keepWith = 0) {
    if (rows.length === 0) return this.muted(this.w.t('Nothing recorded.'), keepWith);
    const header = this.headerOf(columns);
    const all = total ? [...rows, total.map((cell) => (typeof cell === 'string' ? { text: cell, bold: true } : { ...cell, bold: true }))] : rows;
    const cells = all.map((row) =>
      row.map((cell, column) => ({
        lines: wrapLines(this.doc, cellText(cell), { size: TEXT_SIZE, width: columns[column]!.width - 2 * CELL_PADDING, bold: typeof cell !== 'string' && cell.bold }),
        style: (typeof cell === 'string' ? {} : cell) as { bold?: boolean; color?: string },
      })),
    );
    const heightOf = (lines: number) => lines * LINE + 2 * CELL_PADDING - 2;
    const linesOf = (row: { lines: string[] }[]) => Math.max(...row.map((cell) => cell.lines.length));
    /** How many lines of a row fit on a page under the running title and the header row. */
    const pageLines = Math.floor((BOTTOM - PAGE_TOP - header.height - heightOf(0)) / LINE);
    this.room(header.height + heightOf(Math.min(linesOf(cells[0]!), pageLines)));
    this.tableHeader(columns, header);
    cells.forEach((row, index) => {
      const count = linesOf(row);
      const after = index === cells.length - 1 ? TABLE_GAP + keepWith : 0;
      for (let from = 0; from < count; ) {
        const rest = count - from;
        // A row that fits a page is kept whole (the last with what follows it); a longer one fills what is left of this page first.
        const whole = rest <= pageLines;
        if ((whole ? heightOf(rest) + after : heightOf(rest)) > BOTTOM - this.y && (whole || heightOf(1) > BOTTOM - this.y)) {
          this.newPage();
          this.tableHeader(columns, header);
        }
        const shown = Math.min(rest, Math.floor((BOTTOM - this.y - heightOf(0)) / LINE));
        const height = heightOf(shown);
        if (index % 2 === 1) this.doc.rect(LEFT, this.y, CONTENT_WIDTH, height).fill(PANEL);
        let x = LEFT;
        row.forEach(({ lines, style }, column) => {
          lines.slice(from, from + shown).forEach((line, lineIndex) => {
            write(this.doc, line, x + CELL_PADDING, this.y + CELL_PADDING - 1 + lineIndex * LINE, {
              size: TEXT_SIZE,
              bold: style.bold,
              color: style.color,
              width: columns[column]!.width - 2 * CELL_PADDING,
              align: columns[column]!.align,
            });
          });
          x += columns[column]!.width;
        });
        this.y += height;
        this.doc.moveTo(LEFT, this.y).lineTo(RIGHT, this.y).lineWidth(0.4).strokeColor(RULE).stroke();
        from += shown;
      }
    });
    this.y += TABLE_GAP;
  }

  /**
   * Label and value pairs in a shaded panel, `columns` to a row. A value takes as many lines as it
   * needs (a signed record never cuts what was written: "overcast, rain from 2 pm" whole); a row
   * is as tall as its longest value.
   */
  facts(cells: [string, string][], columns: number) {
    const columnWidth = CONTENT_WIDTH / columns;
    const valueLine = 12;
    const rows: { label: string; lines: string[] }[][] = [];
    cells.forEach(([label, value], index) => {
      if (index % columns === 0) rows.push([]);
      rows.at(-1)!.push({ label, lines: wrapLines(this.doc, value, { size: 10, width: columnWidth - 22 }) });
    });
    const rowHeights = rows.map((row) => 18 + Math.max(...row.map((cell) => cell.lines.length)) * valueLine);
    const height = 10 + rowHeights.reduce((sum, rowHeight) => sum + rowHeight, 0);
    this.room(height);
    this.doc.roundedRect(LEFT, this.y, CONTENT_WIDTH, height, 4).fill(PANEL);
    let top = this.y + 10;
    rows.forEach((row, rowIndex) => {
      row.forEach(({ label, lines }, column) => {
        const x = LEFT + 12 + column * columnWidth;
        write(this.doc, label, x, top, { bold: true, size: 7, color: MUTED, width: columnWidth - 18, shrink: true });
        lines.forEach((line, lineIndex) => write(this.doc, line, x, top + 10 + lineIndex * valueLine, { size: 10, width: columnWidth - 22 }));
      });
      top += rowHeights[rowIndex]!;
    });
    this.y += height + 14;
  }

  /**
   * Thumbnails four to a row, each with its whole caption (a signed record keeps what a photo shows,
   * who took it and when: a long subtask name takes more lines, never cuts the rest off); a row is as
   * tall as its longest caption.
   */
  photos(items: { bytes: Buffer; caption: string }[]) {
    const gap = 10;
    const size = (CONTENT_WIDTH - 3 * gap) / 4;
    const box = size * 0.75;
    const lineHeight = 9;
    for (let index = 0; index < items.length; index += 4) {
      const row = items.slice(index, index + 4).map((item) => ({ ...item, lines: wrapLines(this.doc, item.caption, { size: 7, width: size }) }));
      const height = box + 10 + Math.max(...row.map((item) => item.lines.length)) * lineHeight;
      this.room(height);
      row.forEach((item, column) => {
        const x = LEFT + column * (size + gap);
        this.doc.rect(x, this.y, size, box).fill(PANEL);
        this.doc.image(item.bytes, x, this.y, { fit: [size, box], align: 'center', valign: 'center' });
        item.lines.forEach((line, lineIndex) => write(this.doc, line, x, this.y + box + 4 + lineIndex * lineHeight, { size: 7, color: MUTED, width: size }));
      });
      this.y += height;
    }
  }
}

/** A section's rows as lines of text: how an amendment's corrected sections are shown. */
function sectionLines(section: DailyLogSection, value: unknown, w: Wording): string[] {
  const hours = (value: number | null) => (value === null ? '' : ` · ${w.number(value)} h`);
  const content = value as DailyLogContent;
  switch (section) {
    case 'weather': {
      const weather = content.weather;
      if (!weather) return [w.t('Nothing recorded.')];
      const parts = [weather.conditions, weather.temperature === null ? null : `${w.number(weather.temperature)} °C`, weather.wind, weather.precipitation];
      return [[...parts.filter(Boolean), weather.work_stopped ? w.t('Work stopped by weather') : null].filter(Boolean).join(' · ')];
    }
    case 'crew':
      return content.crew.map((row) => `${row.trade} · ${row.company} · ${w.number(row.headcount)} × ${w.number(row.hours)} h`);
    case 'equipment':
      return content.equipment.map((row) => `${row.name}${hours(row.hours)}`);
    case 'deliveries':
      return content.deliveries.map((row) => (row.from ? `${row.what} · ${row.from}` : row.what));
    case 'delays':
      return content.delays.map((row) => `${row.cause} · ${w.number(row.hours_lost)} h`);
    case 'incidents':
      return content.incidents.map((row) => `${w.t(row.kind === 'incident' ? 'Incident' : 'Safety observation')}: ${row.description}`);
    case 'visitors':
      return content.visitors.map((row) => [row.name, row.company, row.purpose].filter(Boolean).join(' · '));
    case 'notes':
      return [content.notes];
  }
}

interface BandLine {
  text: string;
  size: number;
  color: string;
  bold?: boolean;
}

/**
 * The dark band a day's (or a range's) first page opens with: what it is, the project and the day
 * at the left, the company and the clock at the right. The project's and the company's names take
 * as many lines as they need, and the band grows with them.
 */
function band(pages: Pages, title: string, project: string, subtitle: string, right: { status?: BandLine; company: string; notes: string[] }) {
  const { doc } = pages;
  const leftWidth = CONTENT_WIDTH - 190;
  const projectLines = wrapLines(doc, project, { bold: true, size: 11, width: leftWidth });
  const companyLines = wrapLines(doc, right.company, { size: 10, width: 180 });
  const subtitleTop = 79 + (projectLines.length - 1) * 13;
  const notesTop = 60 + (companyLines.length - 1) * 12;
  const height = Math.max(96, subtitleTop + 17, notesTop + right.notes.length * 12 + 12);
  doc.rect(0, 0, PAGE.width, height).fill(INK);
  write(doc, 'SITEBOARD', LEFT, 24, { bold: true, size: 8, color: '#94a3b8', characterSpacing: 1.5 });
  write(doc, title, LEFT, 36, { bold: true, size: 22, color: '#ffffff', width: leftWidth, shrink: true });
  projectLines.forEach((line, index) => write(doc, line, LEFT, 64 + index * 13, { bold: true, size: 11, color: '#e2e8f0', width: leftWidth }));
  write(doc, subtitle, LEFT, subtitleTop, { size: 9.5, color: '#cbd5e1', width: leftWidth });
  const rightColumn = { width: 180, align: 'right' as const };
  if (right.status) write(doc, right.status.text, RIGHT - 180, 28, { ...right.status, ...rightColumn });
  companyLines.forEach((line, index) => write(doc, line, RIGHT - 180, 44 + index * 12, { size: 10, color: '#ffffff', ...rightColumn }));
  right.notes.forEach((note, index) => write(doc, note, RIGHT - 180, notesTop + index * 12, { size: 8, color: '#cbd5e1', ...rightColumn }));
  pages.y = height + 18;
}

function dayHeader(pages: Pages, input: DailyLogPdfInput, log: DailyLog) {
  const { w } = pages;
  const status = log.status === 'signed' ? { text: w.t('Signed'), color: '#86efac' } : { text: w.t('Draft'), color: '#fcd34d' };
  band(pages, w.t('Daily Log'), input.projectName, w.fullDate(log.date), {
    status: { text: status.text.toLocaleUpperCase(LOCALE_TAGS[input.language]), color: status.color, bold: true, size: 9 },
    company: input.companyName,
    notes: [w.t('Generated {time}', { time: w.wallClock(input.generatedAt) }), w.t('Times in {zone}', { zone: describeTimeZone(input.zone, [middayOf(log.date)]) })],
  });
}

function weatherSection(pages: Pages, log: DailyLog) {
  const { w } = pages;
  pages.sectionTitle(w.t('Weather'));
  const weather = log.weather;
  if (!weather) return pages.muted(w.t('Nothing recorded.'));
  pages.facts(
    [
      [w.t('Conditions'), weather.conditions],
      [w.t('Temperature'), weather.temperature === null ? w.t('N/A') : `${w.number(weather.temperature)} °C`],
      [w.t('Wind'), weather.wind ?? w.t('N/A')],
      [w.t('Precipitation'), weather.precipitation ?? w.t('N/A')],
      [w.t('Work stopped'), w.t(weather.work_stopped ? 'Yes' : 'No')],
    ],
    5,
  );
}

function crewSection(pages: Pages, log: DailyLog) {
  const { w } = pages;
  // The day's totals line is kept with the last row of the table above it, never alone at the top of a page.
  const totals = w.t('Head count: {count} · Man-hours: {hours}', { count: w.number(log.crew_headcount), hours: w.number(log.crew_hours) });
  const totalsHeight = pages.paragraphHeight(totals, { bold: true }) - 4;
  pages.sectionTitle(w.t('Crew on site'));
  pages.table(
    [
      { title: 'Trade', width: 140 },
      { title: 'Company', width: 161.28 },
      { title: 'Head count', width: 70, align: 'right' },
      { title: 'Hours', width: 60, align: 'right' },
      { title: 'Man-hours', width: 68, align: 'right' },
    ],
    log.crew.map((row) => [row.trade, row.company, w.number(row.headcount), w.number(row.hours), w.number(Math.round(row.headcount * row.hours * 100) / 100)]),
    undefined,
    log.entries.length > 0 ? 0 : totalsHeight,
  );
  if (log.entries.length > 0) {
    pages.subtitle(w.t('Crew entries'));
    pages.table(
      [
        { title: 'Person', width: 150 },
        { title: 'Hours', width: 60, align: 'right' },
        { title: 'Note', width: 289.28 },
      ],
      // A moved entry says first the day it was for (record 129), as a moved photo's caption does.
      log.entries.map((entry) => [nameOf(entry.author, w), entry.hours === null ? '' : w.number(entry.hours), [entry.for_date && w.t('For {date}', { date: w.date(entry.for_date) }), entry.note].filter(Boolean).join(' · ')]),
      undefined,
      totalsHeight,
    );
  }
  pages.y -= 4;
  pages.paragraph(totals, { bold: true });
  pages.y += 8;
}

function listSections(pages: Pages, log: DailyLog) {
  const { w } = pages;
  pages.sectionTitle(w.t('Equipment'));
  pages.table(
    [
      { title: 'Equipment', width: 420 },
      { title: 'Hours', width: 79.28, align: 'right' },
    ],
    log.equipment.map((row) => [row.name, row.hours === null ? '' : w.number(row.hours)]),
  );
  pages.sectionTitle(w.t('Deliveries'));
  pages.table(
    [
      { title: 'What', width: 320 },
      { title: 'Supplier', width: 179.28 },
    ],
    log.deliveries.map((row) => [row.what, row.from ?? '']),
  );
  pages.sectionTitle(w.t('Delays'));
  pages.table(
    [
      { title: 'Cause', width: 420 },
      { title: 'Hours lost', width: 79.28, align: 'right' },
    ],
    log.delays.map((row) => [row.cause, w.number(row.hours_lost)]),
    log.delays.length > 0 ? [w.t('Total'), w.number(log.hours_lost)] : undefined,
  );
  pages.sectionTitle(w.t('Incidents and safety observations'));
  pages.table(
    [
      { title: 'Kind', width: 110 },
      { title: 'Description', width: 389.28 },
    ],
    log.incidents.map((row) => [w.t(row.kind === 'incident' ? 'Incident' : 'Safety observation'), row.description]),
  );
  pages.sectionTitle(w.t('Visitors'));
  pages.table(
    [
      { title: 'Visitor', width: 150 },
      { title: 'Company', width: 150 },
      { title: 'Purpose', width: 199.28 },
    ],
    log.visitors.map((row) => [row.name, row.company ?? '', row.purpose ?? '']),
  );
  pages.sectionTitle(w.t('Notes'));
  if (log.notes) {
    pages.paragraph(log.notes);
    pages.y += 8;
  } else pages.muted(w.t('Nothing recorded.'));
}

function workSection(pages: Pages, log: DailyLog) {
  const { w } = pages;
  pages.sectionTitle(w.t("The day's work"));
  // What the manager left out stays in the record, not in the log.
  const shown = log.work.filter((item) => !item.excluded);
  pages.table(
    [
      { title: 'Time', width: 62 },
      { title: 'What', width: 84 },
      { title: 'Subtask', width: 150 },
      { title: 'Who', width: 96 },
      { title: 'Note', width: 107.28 },
    ],
    shown.map((item) => {
      const said = [item.note, item.manager_comment ? w.t("Manager's comment: {comment}", { comment: item.manager_comment }) : null].filter(Boolean).join(' — ');
      return [w.time(item.at), { text: w.t(WORK_KIND[item.kind]), bold: true }, `${item.subtask.name} (${item.subtask.major_task.name})`, nameOf(item.actor, w), said];
    }),
  );
}

async function photoSection(pages: Pages, input: DailyLogPdfInput, log: DailyLog) {
  const { w } = pages;
  const wanted = [
    // A photo moved here from a signed log says first the day it was for (record 123).
    ...log.attachments.map((photo) => ({
      kind: 'log' as const,
      id: photo.id,
      caption: [photo.for_date && w.t('For {date}', { date: w.date(photo.for_date) }), nameOf(photo.uploaded_by, w), w.time(photo.created_at)].filter(Boolean).join(' · '),
    })),
    ...log.work
      .filter((item) => !item.excluded && item.attachment)
      .map((item) => ({ kind: 'work' as const, id: item.attachment!.id, caption: `${item.subtask.name} · ${nameOf(item.actor, w)} · ${w.time(item.at)}` })),
  ];
  pages.sectionTitle(w.t('Photos'));
  let shown = 0;
  // Drawn a row of four at a time; a row a batch leaves unfilled waits for the next batch.
  const waiting: { bytes: Buffer; caption: string }[] = [];
  for (let start = 0; start < wanted.length; start += THUMBNAILS_AT_ONCE) {
    const batch = wanted.slice(start, start + THUMBNAILS_AT_ONCE);
    const found = await input.thumbnails({ log: batch.filter((item) => item.kind === 'log').map((item) => item.id), work: batch.filter((item) => item.kind === 'work').map((item) => item.id) });
    for (const item of batch) {
      const bytes = found[item.kind].get(item.id);
      if (bytes) waiting.push({ bytes, caption: item.caption });
      if (bytes) shown++;
    }
    const last = start + THUMBNAILS_AT_ONCE >= wanted.length;
    pages.photos(waiting.splice(0, last ? waiting.length : waiting.length - (waiting.length % 4)));
  }
  if (shown === 0) pages.muted(w.t('Nothing recorded.'));
}

function amendmentSection(pages: Pages, log: DailyLog) {
  const { w } = pages;
  if (log.amendments.length === 0) return;
  pages.sectionTitle(w.t('Amendments'));
  log.amendments.forEach((amendment, index) => {
    pages.room(3 * LINE + 10);
    pages.paragraph(w.t('Amendment {number} · {time} · {name}', { number: w.number(index + 1), time: w.time(amendment.created_at), name: nameOf(amendment.author, w) }), { bold: true, color: AMENDED });
    pages.paragraph(`${w.t('Reason')}: ${amendment.reason}`, { indent: 10 });
    if (typeof amendment.changes === 'string') pages.paragraph(`${w.t('Changes')}: ${amendment.changes}`, { indent: 10 });
    else {
      for (const [section, value] of Object.entries(amendment.changes) as [DailyLogSection, unknown][]) {
        if (value === undefined) continue;
        pages.paragraph(`${w.t('Changes')} — ${w.t(SECTION_TITLE[section])}:`, { indent: 10, bold: true });
        for (const line of sectionLines(section, { [section]: value }, w)) pages.paragraph(line, { indent: 20 });
      }
    }
  });
}

function signature(pages: Pages, log: DailyLog) {
  const { w, doc } = pages;
  // Who signed, on as many lines as their name takes, then when.
  const signer = log.status === 'signed' ? wrapLines(doc, w.t('Signed by {name}', { name: nameOf(log.signed_by, w) }), { bold: true, size: 10, width: CONTENT_WIDTH }) : [];
  const extra = Math.max(0, signer.length - 1) * 13;
  pages.room(80 + extra);
  pages.y += 8;
  const lineY = pages.y + 40 + extra;
  if (log.status === 'signed') {
    signer.forEach((line, index) => write(doc, line, LEFT, pages.y + index * 13, { bold: true, size: 10, color: SIGNED, width: CONTENT_WIDTH }));
    write(doc, log.signed_at ? w.time(log.signed_at) : '', LEFT, pages.y + 14 + extra, { size: 9, color: INK, width: 300 });
  } else {
    write(doc, w.t('Not signed'), LEFT, pages.y, { bold: true, size: 10, color: DRAFT, width: 300 });
  }
  doc.moveTo(LEFT, lineY).lineTo(LEFT + 240, lineY).lineWidth(0.75).strokeColor(INK).stroke();
  doc.moveTo(LEFT + 300, lineY).lineTo(RIGHT, lineY).lineWidth(0.75).strokeColor(INK).stroke();
  write(doc, w.t('Signature'), LEFT, lineY + 4, { size: 8, color: MUTED, width: 240 });
  write(doc, w.t('Date'), LEFT + 300, lineY + 4, { size: 8, color: MUTED, width: RIGHT - LEFT - 300 });
  pages.y = lineY + 30;
}

async function dayPages(pages: Pages, input: DailyLogPdfInput, log: DailyLog, first: boolean) {
  if (!first) pages.doc.addPage();
  pages.runningTitle = pages.w.t('Daily Log · {project} · {date}', { project: input.projectName, date: pages.w.date(log.date) });
  dayHeader(pages, input, log);
  weatherSection(pages, log);
  crewSection(pages, log);
  listSections(pages, log);
  workSection(pages, log);
  await photoSection(pages, input, log);
  signature(pages, log);
  // Corrections come after the signature they correct: the log above stays as it was signed.
  amendmentSection(pages, log);
}

/** A range's first page: each day's state and totals (a day without a log says so), then man-hours by trade and company. */
function rangeSummary(pages: Pages, input: DailyLogPdfInput, range: { from: string; to: string }) {
  const { w } = pages;
  pages.runningTitle = w.t('Daily logs · {project} · {start} to {end}', { project: input.projectName, start: w.date(range.from), end: w.date(range.to) });
  const zone = describeTimeZone(input.zone, datesOf(range.from, range.to).map(middayOf));
  band(pages, w.t('Daily logs'), input.projectName, w.t('{start} to {end}', { start: w.date(range.from), end: w.date(range.to) }), {
    company: input.companyName,
    notes: [w.t('Times in {zone}', { zone })],
  });

  pages.sectionTitle(w.t('Days'));
  const byDate = new Map(input.logs.map((log) => [log.date, log]));
  const rows = datesOf(range.from, range.to).map((date): Cell[] => {
    const log = byDate.get(date);
    if (!log) return [w.date(date), { text: w.t('No log'), color: MUTED }, '', '', ''];
    const status = log.status === 'signed' ? { text: w.t('Signed'), color: SIGNED } : { text: w.t('Draft'), color: DRAFT };
    return [w.date(date), status, w.number(log.crew_headcount), w.number(log.crew_hours), w.number(log.hours_lost)];
  });
  const sum = (pick: (log: DailyLog) => number) => w.number(Math.round(input.logs.reduce((total, log) => total + pick(log), 0) * 100) / 100);
  pages.table(
    [
      { title: 'Date', width: 120 },
      { title: 'Status', width: 110 },
      { title: 'Head count', width: 90, align: 'right' },
      { title: 'Man-hours', width: 90, align: 'right' },
      { title: 'Hours lost', width: 89.28, align: 'right' },
    ],
    rows,
    [w.t('Total'), '', sum((log) => log.crew_headcount), sum((log) => log.crew_hours), sum((log) => log.hours_lost)],
  );

  const lost = w.t('Hours lost to delays: {hours}', { hours: w.number(hoursLost(input.logs.flatMap((log) => log.delays))) });
  pages.sectionTitle(w.t('Man-hours by trade and company'));
  pages.table(
    [
      { title: 'Trade', width: 160 },
      { title: 'Company', width: 179.28 },
      { title: 'Person-days', width: 80, align: 'right' },
      { title: 'Man-hours', width: 80, align: 'right' },
    ],
    input.trades.map((total) => [total.trade || w.t('N/A'), total.company, w.number(total.headcount), w.number(total.manHours)]),
    undefined,
    pages.paragraphHeight(lost, { bold: true }),
  );
  pages.paragraph(lost, { bold: true });
}

/** One day's log, or a range's (a summary, then each logged day in full), as a PDF. */
export async function renderDailyLogPdf(input: DailyLogPdfInput): Promise<Buffer> {
  const w = wordingFor(input.language, input.zone);
  const title = input.range
    ? w.t('Daily logs - {project} - {start} to {end}', { project: input.projectName, start: input.range.from, end: input.range.to })
    : w.t('Daily log - {project} - {date}', { project: input.projectName, date: input.logs[0]?.date ?? '' });
  const { doc, bytes } = await openA4({
    lang: LOCALE_TAGS[input.language],
    info: { Title: title, Author: 'SiteBoard', Subject: `${input.companyName}: ${input.projectName}` },
  });
  const pages = new Pages(doc, w);
  if (input.range) rangeSummary(pages, input, input.range);
  for (const [index, log] of input.logs.entries()) await dayPages(pages, input, log, index === 0 && !input.range);
  footers(doc, `${input.companyName} · ${input.projectName}`, (page, count) => w.t('Page {page} of {count}', { page: w.number(page), count: w.number(count) }));
  doc.end();
  return bytes;
}
