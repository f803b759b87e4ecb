import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SHEET_RENDER_FAILED } from '@siteboard/shared';
import { PermanentJobError, type DbOrTx, type Job } from '../../platform';
import { findSheetToRender, finishSheet, SHEET_FILES_QUEUE, type SheetFilesJob } from './sheets.queries';
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
      await removeRenderings(sheetsDir, [sheetId]);
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

    // A deleted sheet's files (queued with its deletion, or its project's).
    app.jobs.define<SheetFilesJob>({ queue: SHEET_FILES_QUEUE, handle: (job) => removeSheetFiles(app.db, sheetsDir, job.payload) });
  },
  { name: 'sheets', dependencies: ['jobs'] },
);

/** These sheets' rendered folders and any half-made ones beside them (`<id>`, `<id>.partial-…`): one listing of the folder. */
async function removeRenderings(sheetsDir: string, sheetIds: number[]) {
  const ids = new Set(sheetIds.map(String));
  const names = await fs.promises.readdir(sheetsDir).catch(() => [] as string[]);
  await Promise.all(names.filter((name) => ids.has(name.split('.partial-')[0]!)).map((name) => fs.promises.rm(path.join(sheetsDir, name), { recursive: true, force: true })));
}

/** Deleted sheets' files: their rendered folders (and half-made ones), and each upload once no other sheet renders from it. */
export async function removeSheetFiles(db: DbOrTx, sheetsDir: string, job: SheetFilesJob): Promise<void> {
  await removeRenderings(sheetsDir, job.sheets.map(({ id }) => id));
  const uploads = new Set(job.sheets.flatMap(({ sourcePath }) => (sourcePath ? [sourcePath] : [])));
  for (const sourcePath of uploads) await removeSourceIfUnused(db, sourcePath);
}
