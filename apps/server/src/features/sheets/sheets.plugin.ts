import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SHEET_RENDER_FAILED } from '@siteboard/shared';
import { PermanentJobError, startSweep, type DbOrTx, type Job } from '../../platform';
import { existingSheetIds, findSheetToRender, finishSheet, sourcesInUse } from './sheets.queries';
import { onRenderProcess } from './sheets.render-client';
import { DrawingRefusal } from './sheets.render-protocol';
import { RENDER_QUEUE, removeSourceIfUnused, sheetFolder, type RenderJob } from './sheets.service';

/** How long a rendering's instance may go silent before another takes it over (the runner renews it while it runs). */
const LEASE_SECONDS = 120;
/** A page renders in seconds (bench/results/sheets.md: 3–5 s for A0 and A1); one that takes ten minutes is stuck. */
const TIME_LIMIT_SECONDS = 600;

/**
 * Renders each uploaded sheet as a persistent job (decision record 070): one at a time per
 * instance, on a thread of its own, into a folder of its own that is moved into place whole, so a
 * sheet is ready with all its tiles or not at all. A restart mid-render runs it again from the start.
 */
export const sheetsPlugin = fp(
  async (app: FastifyInstance, options: { sheetsDir: string; pixelBudget?: number; bandBytes?: number }) => {
    const { sheetsDir, pixelBudget, bandBytes } = options;

    async function handle(job: Job<RenderJob>) {
      const companyId = job.companyId!;
      const { sheetId, scan } = job.payload;
      const sheet = await findSheetToRender(app.db, companyId, sheetId);
      if (!sheet || sheet.status !== 'processing' || !sheet.sourcePath) return;
      const target = sheetFolder(sheetsDir, sheetId);
      const partial = `${target}.partial-${randomUUID()}`;
      // What an earlier, interrupted run left.
      await removeRenderings(sheetsDir, sheetId);
      try {
        const rendered = await onRenderProcess<{ width: number; height: number; maxLevel: number }>(
          // A job queued before the inspection decided scans (no `scan`) is drawn by PDF.js.
          { kind: 'render', source: sheet.sourcePath, type: sheet.source, page: sheet.pageNumber, outDir: partial, scan, pixelBudget, bandBytes },
          job.signal,
        );
        await fs.promises.rename(partial, target);
        if (!(await finishSheet(app.db, companyId, sheetId, { status: 'ready', ...rendered }))) await fs.promises.rm(target, { recursive: true, force: true });
      } catch (error) {
        await fs.promises.rm(partial, { recursive: true, force: true });
        // The server stopping: the next instance renders it. Its time limit passing is a failed attempt.
        if (job.stopping) throw error;
        const refusal = error instanceof DrawingRefusal;
        // A refusal of the file fails at once; anything else is tried again, and fails the sheet on its last attempt.
        if (refusal || job.attempt >= job.maxAttempts) {
          await finishSheet(app.db, companyId, sheetId, { status: 'failed', failure: refusal ? error.message : SHEET_RENDER_FAILED });
          await removeSourceIfUnused(app.db, sheet.sourcePath);
          throw new PermanentJobError(error instanceof Error ? error.message : String(error));
        }
        throw error;
      }
      await removeSourceIfUnused(app.db, sheet.sourcePath);
    }

    app.jobs.define<RenderJob>({ queue: RENDER_QUEUE, handle, concurrency: 1, leaseSeconds: LEASE_SECONDS, timeLimitSeconds: TIME_LIMIT_SECONDS, backoffSeconds: (attempt) => Math.min(300, 5 * 2 ** attempt) });

    const sweep = startSweep({
      name: 'drawing files sweep',
      intervalMs: FILES_SWEEP_MS,
      firstRunAfterMs: 60_000,
      log: app.log,
      metrics: app.metrics,
      run: async () => {
        const removed = await sweepDrawingFiles(app.db, sheetsDir, new Date());
        if (removed > 0) app.log.info({ removed }, 'drawing files sweep removed files no drawing owns');
      },
    });
    app.addHook('onClose', async () => sweep.stop());
  },
  { name: 'sheets', dependencies: ['jobs'] },
);

/** A sheet's rendered folder and any half-made one beside it. */
async function removeRenderings(sheetsDir: string, sheetId: number) {
  const prefix = `${sheetId}.partial-`;
  const names = await fs.promises.readdir(sheetsDir).catch(() => [] as string[]);
  await Promise.all(
    names.filter((name) => name === String(sheetId) || name.startsWith(prefix)).map((name) => fs.promises.rm(path.join(sheetsDir, name), { recursive: true, force: true })),
  );
}

/** How often the files no drawing owns are looked for. */
const FILES_SWEEP_MS = 60 * 60 * 1000;
/**
 * How old such a file must be to go: well past a rendering's time limit, and past the moment an
 * upload's file is written before its sheet commits, so nothing on its way is taken.
 */
const FILES_KEPT_MS = 60 * 60 * 1000;
/** Ids or file names asked about in one statement. */
const SWEEP_BATCH = 1_000;

/**
 * Removes what no sheet owns and nothing is making any more, an hour old at least: the tiles of
 * sheets deleted with their project (a project's deletion removes its sheets' rows, and the
 * project's feature does not know their files), a half-made rendering an ended process left, an
 * upload whose sheets went before it was rendered or whose removal a crash interrupted. Answers how
 * many files or folders went.
 */
export async function sweepDrawingFiles(db: DbOrTx, sheetsDir: string, now: Date): Promise<number> {
  const oldEnough = async (file: string) => {
    const stat = await fs.promises.stat(file).catch(() => undefined);
    return stat !== undefined && now.getTime() - stat.mtimeMs >= FILES_KEPT_MS;
  };
  const remove = async (files: string[]) => {
    let removed = 0;
    for (const file of files) {
      if (!(await oldEnough(file))) continue;
      await fs.promises.rm(file, { recursive: true, force: true });
      removed += 1;
    }
    return removed;
  };
  let removed = 0;

  const names = await fs.promises.readdir(sheetsDir).catch(() => [] as string[]);
  const byId = new Map<number, string[]>();
  const partials: string[] = [];
  for (const name of names) {
    const match = /^(\d+)(\.partial-.+)?$/.exec(name);
    if (!match) continue;
    if (match[2]) partials.push(path.join(sheetsDir, name));
    else byId.set(Number(match[1]), [...(byId.get(Number(match[1])) ?? []), path.join(sheetsDir, name)]);
  }
  // A half-made rendering an hour old belongs to no running job (a rendering's limit is ten minutes).
  removed += await remove(partials);
  const ids = [...byId.keys()];
  for (let start = 0; start < ids.length; start += SWEEP_BATCH) {
    const batch = ids.slice(start, start + SWEEP_BATCH);
    const existing = new Set(await existingSheetIds(db, batch));
    removed += await remove(batch.filter((id) => !existing.has(id)).flatMap((id) => byId.get(id)!));
  }

  // By file name (a random one): the path a sheet keeps is where the folder was when it was uploaded.
  const sources = path.join(sheetsDir, 'sources');
  const uploads = await fs.promises.readdir(sources).catch(() => [] as string[]);
  if (uploads.length > 0) {
    const used = new Set((await sourcesInUse(db)).map((file) => path.basename(file)));
    removed += await remove(uploads.filter((name) => !used.has(name)).map((name) => path.join(sources, name)));
  }
  return removed;
}
