import { formatDateOnly, formatNumber, formatWallClock, LOCALE_TAGS, shownDecisionHours, t, type AppraisalItem, type Language, type MessageKey, type MessageParams } from '@siteboard/shared';
import { ROLE_LABEL } from '../../lib/labels';
import { BOTTOM, CONTENT_WIDTH, fonts, footers, INK, LEFT, MARGIN, MUTED, openA4, PAGE, PANEL, RIGHT, RULE, wrapLines, write, type Doc } from '../../lib/pdf';
import type { ReportSubtaskRow } from './reports.queries';
import { countAxis, rangeLabel, type DateRange } from './reports.rules';

export interface AppraisalPdfInput {
  companyName: string;
  /** When it was made, in `timezone` (`YYYY-MM-DD HH:MM`): the reader's zone, their own or else the company's. */
  generatedAt: string;
  timezone: string;
  /** The requester's language: every label, date and number is written in it. */
  language: Language;
  range: DateRange;
  item: AppraisalItem;
  /** The person's subtasks in the range, possibly only the first of them (item.total_tasks says how many there are). */
  subtasks: ReportSubtaskRow[];
}

/** How the report writes words, dates and numbers for its reader; English as it always was. */
interface Wording {
  language: Language;
  t(key: MessageKey, params?: MessageParams): string;
  upper(text: string): string;
  date(date: string): string;
  dateTime(localDateTime: string): string;
  count(value: number): string;
  percent(value: number): string;
  hours(value: number): string;
}

function wordingFor(language: Language): Wording {
  const english = language === 'en';
  const tag = LOCALE_TAGS[language];
  return {
    language,
    t: (key, params) => t(language, key, params),
    upper: (text) => text.toLocaleUpperCase(tag),
    date: (date) => formatDateOnly(date, language),
    dateTime: (local) => (english ? local : formatWallClock(local, tag)),
    count: (value) => (english ? String(value) : formatNumber(value, language)),
    percent: (value) => (english ? `${value}%` : formatNumber(value / 100, language, { style: 'percent' })),
    hours: (value) => {
      const shown = shownDecisionHours(value);
      const hours = english ? shown.value.toFixed(1) : formatNumber(shown.value, language, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
      return t(language, shown.under ? 'under {hours} hours' : '{hours} hours', { hours });
    },
  };
}

// Spec §9: the chart's four bars and their colours.
const SERIES = [
  { label: 'Completed', color: '#16a34a', value: (item: AppraisalItem) => item.completed_tasks },
  { label: 'Ongoing', color: '#f97316', value: (item: AppraisalItem) => item.ongoing_tasks },
  { label: 'Pending Approval', color: '#9333ea', value: (item: AppraisalItem) => item.pending_approval_tasks },
  { label: 'Overdue', color: '#dc2626', value: (item: AppraisalItem) => item.overdue_tasks },
] as const;

// One subtask's status: the same English as the bars, worded as a status in other languages.
const STATUS = {
  completed: { label: 'Completed|status', color: '#15803d' },
  ongoing: { label: 'Ongoing|status', color: '#c2410c' },
  pending_approval: { label: 'Pending Approval|status', color: '#7e22ce' },
} as const;


const ACCENT = '#2563eb';
const OVERDUE = '#dc2626';

const TABLE_COLUMNS = [
  { key: 'project', title: 'Project', width: 108 },
  { key: 'majorTask', title: 'Major Task', width: 108 },
  { key: 'subtask', title: 'Subtask', width: 131 },
  // Room for a French or Spanish date ("14 nov. 2026"), not only the ISO form.
  { key: 'dueDate', title: 'Due Date', width: 70 },
  { key: 'status', title: 'Status', width: CONTENT_WIDTH - 108 - 108 - 131 - 70 },
] as const;
const ROW_HEIGHT = 18;
/** A wrapped name's further lines in a row. */
const LINE_HEIGHT = 11;
const HEADER_ROW_HEIGHT = 20;
const CELL_PADDING = 6;

function sectionTitle(doc: Doc, title: string, y: number): number {
  write(doc, title, LEFT, y, { bold: true, size: 13 });
  doc.moveTo(LEFT, y + 19).lineTo(RIGHT, y + 19).lineWidth(0.75).strokeColor(RULE).stroke();
  return y + 30;
}

function header(doc: Doc, input: AppraisalPdfInput, w: Wording): number {
  doc.rect(0, 0, PAGE.width, 98).fill(INK);
  write(doc, 'SITEBOARD', LEFT, 26, { bold: true, size: 8, color: '#94a3b8', characterSpacing: 1.5 });
  write(doc, w.t('Appraisal Report'), LEFT, 39, { bold: true, size: 24, color: '#ffffff', width: CONTENT_WIDTH - 200, shrink: true });
  write(doc, input.companyName, LEFT, 70, { size: 11, color: '#cbd5e1', width: 300 });
  const rightWidth = 200;
  // Letter spacing also follows the last letter: widen the box by that much so the label lines up with the date below.
  write(doc, w.t('GENERATED'), RIGHT - rightWidth, 30, { bold: true, size: 8, color: '#94a3b8', width: rightWidth + 1.5, align: 'right', characterSpacing: 1.5 });
  write(doc, w.dateTime(input.generatedAt), RIGHT - rightWidth, 44, { size: 11, color: '#ffffff', width: rightWidth, align: 'right' });
  write(doc, input.timezone, RIGHT - rightWidth, 60, { size: 9, color: '#cbd5e1', width: rightWidth, align: 'right' });
  return 118;
}

/** Pairs of label and value in a shaded panel, `columns` to a row. */
/** How far apart the lines of a fact's label are. */
const LABEL_LINE = 9.5;

function factPanel(doc: Doc, w: Wording, cells: [string, string][], y: number, columns = 2): number {
  const columnWidth = CONTENT_WIDTH / columns;
  const label = { bold: true, size: 7.5, characterSpacing: 0.8, width: columnWidth - 20 };
  // A label takes as many lines as it needs ("approved the first time" is wider than a quarter of the page); its row grows with it.
  const labels = cells.map(([text]) => wrapLines(doc, w.upper(text), label));
  const rowHeights = Array.from({ length: Math.ceil(cells.length / columns) }, (_, row) => 32 + (Math.max(...labels.slice(row * columns, (row + 1) * columns).map((lines) => lines.length)) - 1) * LABEL_LINE);
  const height = 12 + rowHeights.reduce((sum, rowHeight) => sum + rowHeight, 0);
  doc.roundedRect(LEFT, y, CONTENT_WIDTH, height, 4).fill(PANEL);
  let rowTop = y + 12;
  cells.forEach(([, value], index) => {
    const x = LEFT + 14 + (index % columns) * columnWidth;
    const row = Math.floor(index / columns);
    labels[index]!.forEach((line, lineIndex) => write(doc, line, x, rowTop + lineIndex * LABEL_LINE, { ...label, color: MUTED }));
    // Smaller rather than cut: "moins de 0,1 heure" is wider than a quarter of the page at 11 points.
    write(doc, value, x, rowTop + 11 + (rowHeights[row]! - 32), { size: 11, width: columnWidth - 20, shrink: true });
    if (index % columns === columns - 1 || index === cells.length - 1) rowTop += rowHeights[row]!;
  });
  return y + height + 24;
}

/** The report's period as its reader writes it. */
const periodOf = (range: DateRange, w: Wording) => rangeLabel(range, w.language);

/** The person as people call them: their full name, else their e-mail. */
const personName = (item: AppraisalItem) => item.full_name ?? item.name;

/**
 * The person's name is the block's title, the word "Employee" beside it on the same line: a fifth
 * fact would add a row and push the subtasks' table onto the next page.
 */
function personDetails(doc: Doc, input: AppraisalPdfInput, w: Wording, top: number): number {
  const labelWidth = 140;
  write(doc, personName(input.item), LEFT, top, { bold: true, size: 13, width: CONTENT_WIDTH - labelWidth - 12, shrink: true });
  write(doc, w.upper(w.t('Employee')), RIGHT - labelWidth, top + 5, { bold: true, size: 7.5, color: MUTED, characterSpacing: 0.8, width: labelWidth, align: 'right', shrink: true });
  doc.moveTo(LEFT, top + 19).lineTo(RIGHT, top + 19).lineWidth(0.75).strokeColor(RULE).stroke();
  return factPanel(
    doc,
    w,
    [
      [w.t('Email'), input.item.name],
      [w.t('Role'), w.t(ROLE_LABEL[input.item.role])],
      [w.t('Code'), input.item.code],
      [w.t('Period'), periodOf(input.range, w)],
    ],
    top + 30,
  );
}

const percentOrNone = (value: number | null, w: Wording) => (value === null ? w.t('N/A') : w.percent(value));

/** What the approvers decided on the person's work. */
function approvalRecord(doc: Doc, item: AppraisalItem, w: Wording, top: number): number {
  return factPanel(
    doc,
    w,
    [
      [w.t('On-time completion'), percentOrNone(item.on_time_completion_rate, w)],
      [w.t('Approved the first time'), percentOrNone(item.first_pass_approval_rate, w)],
      [w.t('Declines received'), w.count(item.declines_received)],
      [w.t('Median to decision'), item.median_decision_hours === null ? w.t('N/A') : w.hours(item.median_decision_hours)],
    ],
    sectionTitle(doc, w.t('Approval Record'), top),
    4,
  );
}

function chart(doc: Doc, item: AppraisalItem, w: Wording, top: number): number {
  const y = sectionTitle(doc, w.t('Task Summary'), top);
  const plot = { left: LEFT + 34, top: y + 18, width: 290, height: 128 };
  const baseline = plot.top + plot.height;
  const { top: axisTop, step } = countAxis(Math.max(...SERIES.map((series) => series.value(item))));

  for (let tick = 0; tick <= axisTop; tick += step) {
    const tickY = baseline - (tick / axisTop) * plot.height;
    doc.moveTo(plot.left, tickY).lineTo(plot.left + plot.width, tickY).lineWidth(0.5).strokeColor(tick === 0 ? '#94a3b8' : RULE).stroke();
    write(doc, w.count(tick), LEFT, tickY - 3.5, { size: 8, color: MUTED, width: 28, align: 'right' });
  }
  doc.moveTo(plot.left, plot.top - 6).lineTo(plot.left, baseline).lineWidth(0.75).strokeColor('#94a3b8').stroke();
  doc.save().rotate(-90, { origin: [LEFT - 10, plot.top + plot.height / 2] });
  write(doc, w.t('Tasks'), LEFT - 10 - 30, plot.top + plot.height / 2 - 4, { size: 8, color: MUTED, width: 60, align: 'center' });
  doc.restore();

  const slot = plot.width / SERIES.length;
  const barWidth = 40;
  SERIES.forEach((series, index) => {
    const value = series.value(item);
    const barHeight = (value / axisTop) * plot.height;
    const x = plot.left + index * slot + (slot - barWidth) / 2;
    if (barHeight > 0) doc.rect(x, baseline - barHeight, barWidth, barHeight).fill(series.color);
    write(doc, w.count(value), x - 10, baseline - barHeight - 14, { bold: true, size: 10, width: barWidth + 20, align: 'center' });
    write(doc, w.t(series.label), plot.left + index * slot, baseline + 7, { size: 8.5, color: INK, width: slot, align: 'center', shrink: true });
  });

  const legend = { left: plot.left + plot.width + 20, top: plot.top - 6, width: RIGHT - (plot.left + plot.width + 20) };
  doc.roundedRect(legend.left, legend.top, legend.width, plot.height + 30, 4).fill(PANEL);
  const inner = { left: legend.left + 14, width: legend.width - 28 };
  write(doc, w.t('Total tasks'), inner.left, legend.top + 16, { bold: true, size: 10, width: inner.width - 24, shrink: true });
  write(doc, w.count(item.total_tasks), inner.left, legend.top + 16, { bold: true, size: 10, width: inner.width, align: 'right' });
  doc.moveTo(inner.left, legend.top + 34).lineTo(inner.left + inner.width, legend.top + 34).lineWidth(0.5).strokeColor(RULE).stroke();
  SERIES.forEach((series, index) => {
    const rowY = legend.top + 44 + index * 19;
    doc.rect(inner.left, rowY + 1, 9, 9).fill(series.color);
    write(doc, w.t(series.label), inner.left + 16, rowY + 1, { size: 9.5, width: inner.width - 40, shrink: true });
    write(doc, w.count(series.value(item)), inner.left, rowY + 1, { bold: true, size: 9.5, width: inner.width, align: 'right' });
  });
  doc
    .font(fonts().regular[0]!.name)
    .fontSize(7.5)
    .fillColor(MUTED)
    .text(w.t('Overdue tasks (not completed, due before today) are also counted as ongoing or pending approval.'), inner.left, legend.top + 122, {
      width: inner.width,
    });
  return baseline + 40;
}

function efficiency(doc: Doc, item: AppraisalItem, w: Wording, top: number): number {
  const y = sectionTitle(doc, w.t('Efficiency Score'), top);
  const score = item.efficiency_score;
  write(doc, w.percent(score), LEFT, y + 2, { bold: true, size: 26, color: ACCENT });
  const bar = { left: LEFT + 96, top: y + 8, width: CONTENT_WIDTH - 96, height: 14 };
  doc.roundedRect(bar.left, bar.top, bar.width, bar.height, 7).fill(RULE);
  if (score > 0) doc.roundedRect(bar.left, bar.top, Math.max(bar.height, (bar.width * score) / 100), bar.height, 7).fill(ACCENT);
  for (const tick of [0, 25, 50, 75, 100]) {
    const x = bar.left + (bar.width * tick) / 100;
    const align = tick === 0 ? 'left' : tick === 100 ? 'right' : 'center';
    const labelLeft = align === 'left' ? x : align === 'right' ? x - 40 : x - 20;
    write(doc, w.percent(tick), labelLeft, bar.top + bar.height + 5, { size: 7.5, color: MUTED, width: 40, align });
  }
  const caption =
    item.total_tasks === 0
      ? w.t('No tasks were due in this period, so the score is 0%.')
      : item.completed_tasks === 0
        ? w.t('0 of {total} tasks completed (completed ÷ total, rounded to a whole percentage).', { total: w.count(item.total_tasks) })
        : item.completed_tasks === 1
          ? // One apart: French writes 0 and 1 in the singular ("1 tâche terminée sur 4").
            w.t('1 of {total} tasks completed (completed ÷ total, rounded to a whole percentage).', { total: w.count(item.total_tasks) })
          : w.t('{completed} of {total} tasks completed (completed ÷ total, rounded to a whole percentage).', { completed: w.count(item.completed_tasks), total: w.count(item.total_tasks) });
  write(doc, caption, LEFT, y + 40, { size: 9, color: MUTED, width: CONTENT_WIDTH, shrink: true });
  return y + 62;
}

function tableHeader(doc: Doc, w: Wording, y: number): number {
  doc.rect(LEFT, y, CONTENT_WIDTH, HEADER_ROW_HEIGHT).fill('#e2e8f0');
  let x = LEFT;
  for (const column of TABLE_COLUMNS) {
    write(doc, w.t(column.title), x + CELL_PADDING, y + 6.5, { bold: true, size: 8.5, width: column.width - 2 * CELL_PADDING, shrink: true });
    x += column.width;
  }
  return y + HEADER_ROW_HEIGHT;
}

type Cell = { text: string; color?: string; bold?: boolean; shrink?: boolean };

/** A row's cells: names wrap onto as many lines as they take (the report never cuts one short); a date and a status are one line. */
function rowCells(doc: Doc, w: Wording, row: ReportSubtaskRow): { cells: (Cell & { lines: string[] })[]; height: number } {
  const status = STATUS[row.status];
  const byColumn: Record<(typeof TABLE_COLUMNS)[number]['key'], Cell> = {
    project: { text: row.project },
    majorTask: { text: row.majorTask },
    subtask: { text: row.subtask },
    dueDate: { text: row.dueDate ? w.date(row.dueDate) : w.t('N/A'), ...(row.overdue ? { color: OVERDUE, bold: true } : {}) },
    // A status is one of three words: a long one ("Pending Approval") is drawn a little smaller rather than cut.
    status: { text: w.t(status.label), color: status.color, shrink: true },
  };
  const cells = TABLE_COLUMNS.map((column) => {
    const cell = byColumn[column.key];
    const wraps = column.key === 'project' || column.key === 'majorTask' || column.key === 'subtask';
    return { ...cell, lines: wraps ? wrapLines(doc, cell.text, { size: 8.5, bold: cell.bold, width: column.width - 2 * CELL_PADDING }) : [cell.text] };
  });
  return { cells, height: ROW_HEIGHT + (Math.max(...cells.map((cell) => cell.lines.length)) - 1) * LINE_HEIGHT };
}

function tableRow(doc: Doc, row: ReturnType<typeof rowCells>, y: number, striped: boolean) {
  if (striped) doc.rect(LEFT, y, CONTENT_WIDTH, row.height).fill(PANEL);
  let x = LEFT;
  TABLE_COLUMNS.forEach((column, index) => {
    const cell = row.cells[index]!;
    cell.lines.forEach((line, lineIndex) =>
      write(doc, line, x + CELL_PADDING, y + 5.5 + lineIndex * LINE_HEIGHT, { size: 8.5, bold: cell.bold, color: cell.color, width: column.width - 2 * CELL_PADDING, shrink: cell.shrink }),
    );
    x += column.width;
  });
  doc.moveTo(LEFT, y + row.height).lineTo(RIGHT, y + row.height).lineWidth(0.4).strokeColor(RULE).stroke();
}

/** A page after the first: a running title so a loose page still says whose report it is. */
function continuationPage(doc: Doc, input: AppraisalPdfInput, w: Wording): number {
  doc.addPage();
  write(doc, w.t('Appraisal Report · {name} · {period}', { name: personName(input.item), period: periodOf(input.range, w) }), LEFT, 30, { size: 8, color: MUTED, width: CONTENT_WIDTH });
  doc.moveTo(LEFT, 44).lineTo(RIGHT, 44).lineWidth(0.5).strokeColor(RULE).stroke();
  return MARGIN.top + 4;
}

function subtaskTable(doc: Doc, input: AppraisalPdfInput, w: Wording, top: number) {
  const { subtasks, item } = input;
  // The title, the caption, the header row and a couple of rows stay together.
  let y = top + 54 + HEADER_ROW_HEIGHT + 2 * ROW_HEIGHT > BOTTOM ? continuationPage(doc, input, w) : top;
  y = sectionTitle(doc, w.t('Subtasks ({count})', { count: w.count(item.total_tasks) }), y);
  if (subtasks.length === 0) {
    write(doc, w.t('No subtasks in this period.'), LEFT, y, { size: 10, color: MUTED });
    return;
  }
  const shown = subtasks.length < item.total_tasks ? w.t('Showing the first {shown} of {total} subtasks. ', { shown: w.count(subtasks.length), total: w.count(item.total_tasks) }) : '';
  write(doc, `${shown}${w.t('Soonest due first; due dates in red are overdue.')}`, LEFT, y, { size: 8.5, color: MUTED, width: CONTENT_WIDTH, shrink: true });
  y = tableHeader(doc, w, y + 16);
  subtasks.forEach((subtask, index) => {
    const row = rowCells(doc, w, subtask);
    if (y + row.height > BOTTOM) y = tableHeader(doc, w, continuationPage(doc, input, w));
    tableRow(doc, row, y, index % 2 === 1);
    y += row.height;
  });
}

/** The appraisal report as a PDF: who, when, the four counts as a bar chart, the efficiency bar, the approval record, and the subtasks behind them. */
export async function renderAppraisalPdf(input: AppraisalPdfInput): Promise<Buffer> {
  const w = wordingFor(input.language);
  const { doc, bytes } = await openA4({
    lang: LOCALE_TAGS[input.language],
    info: { Title: w.t('Appraisal report - {name}', { name: personName(input.item) }), Author: 'SiteBoard', Subject: `${input.companyName}: ${periodOf(input.range, w)}` },
  });

  let y = header(doc, input, w);
  y = personDetails(doc, input, w, y);
  y = chart(doc, input.item, w, y);
  y = efficiency(doc, input.item, w, y);
  y = approvalRecord(doc, input.item, w, y);
  subtaskTable(doc, input, w, y);
  footers(doc, w.t('{company} · Appraisal report for {name}', { company: input.companyName, name: personName(input.item) }), (page, count) =>
    w.t('Page {page} of {count}', { page: w.count(page), count: w.count(count) }),
  );
  doc.end();
  return bytes;
}
