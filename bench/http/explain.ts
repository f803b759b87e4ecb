/**
 * `npm run bench:explain` — EXPLAIN ANALYZE of every statement the benchmarked calls run, on
 * PostgreSQL with the large data. Writes bench/results/explain.md: the statements ranked by
 * execution time (the hottest first) with their plans, and a flag on any sequential scan over the
 * big tables (subtasks, notifications, their recipients, major tasks).
 *
 * It builds the app in this process (no HTTP) on a fresh seeded database, or on BENCH_DATABASE_URL
 * when that names one already seeded with `npm run seed:large`. Each statement is explained as the
 * server runs it: prepared on a connection with the server's session options, so the plan shown is
 * the generic plan it reuses ($n in its conditions). Writes are explained inside a transaction
 * that is rolled back.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app';
import { openDatabase, SESSION_OPTIONS } from '../../apps/server/src/platform';
import { describeEndpoints, type Call } from '../lib/endpoints';
import { prepareLargeDatabase, repoRoot } from '../lib/large-database';

const BIG_TABLES = ['subtasks', 'notifications', 'notification_recipients', 'major_tasks'];

interface Statement {
  endpoint: string;
  sql: string;
  params: unknown[];
}
interface Explained extends Statement {
  plan: string;
  executionMs: number;
  bigSeqScans: string[];
}

async function main() {
  const data = await prepareLargeDatabase('postgres');
  const url = data.env.DATABASE_URL!;
  let capture: Statement[] | undefined;
  let endpointName = '';
  const database = await openDatabase({ kind: 'postgres', url, onQuery: (sql, params) => capture?.push({ endpoint: endpointName, sql, params }) });
  // describeEndpoints finds the seeded companies by name in the company list, as the load runs do.
  const app = await buildApp({ database, jwtSecret: 'explain-secret-that-is-long-enough-for-hs256-signing', publicCompanyList: true });
  const explainer = new pg.Client({ connectionString: url, options: SESSION_OPTIONS });
  await explainer.connect();
  try {
    let address = 0;
    const call: Call = async <T>(method: string, url: string, token?: string, body?: unknown) => {
      const response = await app.inject({
        method: method as 'GET',
        url,
        // Each call from its own address: the login throttle counts per client.
        remoteAddress: `10.9.${Math.floor(++address / 250)}.${address % 250}`,
        headers: token ? { authorization: `Bearer ${token}` } : {},
        payload: body as object | undefined,
      });
      if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
      return response.json() as T;
    };
    const endpoints = await describeEndpoints(call);
    const statements: Statement[] = [];
    for (const endpoint of endpoints) {
      const request = endpoint.next();
      endpointName = endpoint.name;
      capture = [];
      await call(request.method, request.path, request.token, request.body);
      // Transaction control (begin, commit, savepoints) has no plan.
      statements.push(...capture.filter((statement) => /^\s*\(?\s*(select|insert|update|delete|with)\b/i.test(statement.sql)));
      capture = undefined;
    }
    const explained: Explained[] = [];
    for (const [index, statement] of statements.entries()) explained.push(await explain(explainer, statement, index));
    const file = path.join(repoRoot, 'bench/results', 'explain.md');
    fs.writeFileSync(file, render(explained, (await explainer.query<{ server_version: string }>('show server_version')).rows[0]!.server_version));
    console.log(`Wrote ${path.relative(repoRoot, file)}`);
    const flagged = explained.filter((item) => item.bigSeqScans.length > 0);
    for (const item of flagged) console.log(`Sequential scan over ${item.bigSeqScans.join(', ')} in ${item.endpoint}: ${item.sql.slice(0, 120)}`);
  } finally {
    await explainer.end();
    await app.close();
    await database.close();
    await data.drop();
  }
}

async function explain(client: pg.Client, statement: Statement, index: number): Promise<Explained> {
  const params = statement.params.map(toParam);
  const name = `explained_${index}`;
  // ANALYZE runs the statement: a write must leave nothing behind.
  await client.query('begin');
  let plan: string;
  try {
    // The plan the server gets: the statement prepared (and planned) once, then run again.
    await client.query({ name, text: statement.sql, values: params });
    plan = await planOf(client, `explain (analyze, buffers) execute ${name}(${params.map((param) => literal(client, param)).join(', ')})`);
  } catch {
    // The request already ran this write for real (a unique key taken, say): its plan without running it.
    await client.query('rollback');
    await client.query('begin');
    plan = `(estimated: the statement cannot run twice)\n${await planOf(client, `explain ${statement.sql}`, params)}`;
  } finally {
    await client.query('rollback');
    await client.query(`deallocate all`);
  }
  const executionMs = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? 0);
  const bigSeqScans = BIG_TABLES.filter((table) => new RegExp(`Seq Scan on ${table}\\b`).test(plan));
  return { ...statement, plan, executionMs, bigSeqScans };
}

async function planOf(client: pg.Client, sql: string, params: unknown[] = []): Promise<string> {
  const { rows } = await client.query<{ 'QUERY PLAN': string }>(sql, params);
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

/** A parameter as an SQL literal, written as node-postgres would send it (dates, arrays). */
function literal(client: pg.Client, value: unknown): string {
  if (value === null || value === undefined) return 'null';
  const text = value instanceof Date ? value.toISOString() : Array.isArray(value) ? `{${value.map((item) => JSON.stringify(String(item))).join(',')}}` : String(value);
  return client.escapeLiteral(text);
}

/** Drizzle hands node-postgres dates and arrays as they are; JSON-ish values go as text. */
function toParam(value: unknown): unknown {
  return value !== null && typeof value === 'object' && !(value instanceof Date) && !Array.isArray(value) ? JSON.stringify(value) : value;
}

function render(explained: Explained[], serverVersion: string): string {
  const ranked = [...explained].sort((a, b) => b.executionMs - a.executionMs);
  const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').slice(0, 140).replaceAll('|', '\\|');
  const flagged = explained.filter((item) => item.bigSeqScans.length > 0);
  return [
    `# EXPLAIN ANALYZE of the benchmarked calls — ${new Date().toISOString().slice(0, 10)}`,
    '',
    `PostgreSQL ${serverVersion.split(' ')[0]}, large data (\`npm run seed:large\`: two companies of 100,000 subtasks and 200,000 notifications each), one request per call as in \`npm run bench\` (manager1 of the first company, team of 20; member1), each statement prepared and planned as the server's connections do (\`${SESSION_OPTIONS}\`: one generic plan per statement, $n in its conditions). ${explained.length} statements.`,
    '',
    flagged.length === 0
      ? `No sequential scan over ${BIG_TABLES.join(', ')} in any statement.`
      : `Sequential scans over big tables: ${flagged.map((item) => `${item.endpoint} (${item.bigSeqScans.join(', ')})`).join('; ')}.`,
    '',
    '| # | call | execution ms | big-table seq scan | statement |',
    '|---:|---|---:|---|---|',
    ...ranked.map((item, index) => `| ${index + 1} | ${item.endpoint} | ${item.executionMs.toFixed(3)} | ${item.bigSeqScans.join(', ') || 'none'} | \`${oneLine(item.sql)}\` |`),
    '',
    '## Plans, hottest first',
    ...ranked.flatMap((item, index) => ['', `### ${index + 1}. ${item.endpoint} — ${item.executionMs.toFixed(3)} ms`, '', '```sql', item.sql, '```', '', '```', item.plan, '```']),
    '',
  ].join('\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
