import http from 'node:http';
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from './test/build-app';
import { createTeam, insertMajorTask, insertProject, type Team } from './test/work-factories';

const ROWS = 100_000;
/** What the server may hold live at any moment of the export, in JavaScript heap and buffers. */
const LIVE_MEMORY_BOUND = 24 * 1024 * 1024;

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

/** What the process holds live now: heap objects and buffers, after a full collection. */
function liveMemory(): number {
  collectGarbage();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/**
 * Downloads the URL as a spreadsheet program would (no compression asked), keeping nothing but
 * counts, and measures what the process holds live when a quarter, half and three quarters of
 * the rows have arrived (a server that read the whole file first would hold it at every point).
 */
function download(url: string, access: string, rows: number): Promise<{ status: number; bytes: number; lines: number; peakGrowth: number }> {
  const baseline = liveMemory();
  let peak = baseline;
  const checkpoints = [0.25, 0.5, 0.75].map((share) => Math.round(rows * share));
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { authorization: `Bearer ${access}` } }, (response) => {
        let bytes = 0;
        let lines = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
          if (lines >= (checkpoints[0] ?? Infinity)) {
            checkpoints.shift();
            peak = Math.max(peak, liveMemory());
          }
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes, lines, peakGrowth: peak - baseline }));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

describeEachDatabase('CSV export of 100,000 subtasks', (ctx) => {
  let team: Team;
  let base: string;

  beforeAll(async () => {
    team = await createTeam(ctx.app);
    const project = await insertProject(ctx.app.db, team.company.id, { managerId: team.manager.id });
    const majorTask = await insertMajorTask(ctx.app.db, team.company.id, project.id);
    // Each row ~480 bytes of CSV: the whole file is twice the bound below.
    await ctx.app.db.execute(sql`
      insert into subtasks (company_id, major_task_id, name, description, assigned_to_id, assigned_by_id, due_date, status, priority)
      select ${team.company.id}, ${majorTask.id}, 'Inspect anchor bolt ' || n, repeat('Torque, photograph and sign off. ', 9),
             ${team.member.id}, ${team.manager.id}, date '2026-01-01' + (n % 365), 'ongoing', 'medium'
      from generate_series(1, ${ROWS}) as n`);
    // As autovacuum would after such an insert (PGlite has none): the planner then reads each batch
    // on the primary key instead of sorting every remaining row.
    await ctx.app.db.execute(sql`analyze subtasks`);
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  });

  it('streams every row while the server holds a small part of the file at a time', { timeout: 120_000 }, async () => {
    const result = await download(`${base}/api/subtasks/?format=csv`, team.admin.access, ROWS);
    expect(result.status).toBe(200);
    // The header and one line per subtask (no text here holds a line break).
    expect(result.lines).toBe(ROWS + 1);
    expect(result.bytes).toBeGreaterThan(LIVE_MEMORY_BOUND);
    expect(result.peakGrowth, `peak growth ${(result.peakGrowth / 1024 / 1024).toFixed(1)} MB for ${(result.bytes / 1024 / 1024).toFixed(1)} MB of CSV`).toBeLessThan(LIVE_MEMORY_BOUND);
  });
});
