import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedSessionServer } from './embedded-session-server';

// One PGlite on this thread behind the server, as the embedded host runs it, and clients as the pool opens them.
let socketDir: string;
let db: PGlite;
let server: EmbeddedSessionServer;
const clients: pg.Client[] = [];

beforeAll(async () => {
  socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-session-test-'));
  db = await PGlite.create();
  server = new EmbeddedSessionServer(db, path.join(socketDir, '.s.PGSQL.5432'));
  await server.start();
  await db.exec('create table counted (id integer primary key)');
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.end().catch(() => {})));
  await server.stop();
  await db.close();
  fs.rmSync(socketDir, { recursive: true, force: true });
});

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ host: socketDir, user: 'postgres', database: 'postgres' });
  client.on('error', () => {});
  await client.connect();
  clients.push(client);
  return client;
}

const count = async (client: pg.Client) => Number((await client.query<{ n: string }>('select count(*) as n from counted')).rows[0]!.n);

/** Whether a promise has settled by the time a statement on `other` has gone round the session. */
async function settledAfter(promise: Promise<unknown>, other: pg.Client): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await other.query('select 1');
  return settled;
}

describe('one PGlite session for several connections', () => {
  it("keeps other connections' statements out of an open transaction until it ends", async () => {
    const [writer, reader] = await Promise.all([connect(), connect()]);
    await writer.query('begin');
    await writer.query('insert into counted values (1), (2)');

    const counted = count(reader);
    // Run inside the transaction, the count would see its two rows, and then keep them after the rollback.
    expect(await settledAfter(counted, writer)).toBe(false);
    await writer.query('rollback');

    expect(await counted).toBe(0);
    expect(await count(writer)).toBe(0);
  });

  it('answers parameterised statements sent at once on several connections each with its own values', async () => {
    const pool = new pg.Pool({ host: socketDir, user: 'postgres', database: 'postgres', max: 4 });
    const asked = Array.from({ length: 200 }, (_, i) => i);

    try {
      const answers = await Promise.all(asked.map((i) => pool.query<{ doubled: number }>('select $1::integer * 2 as doubled', [i])));
      expect(answers.map((answer) => answer.rows[0]!.doubled)).toEqual(asked.map((i) => i * 2));
      expect(pool.totalCount).toBe(4);
    } finally {
      await pool.end();
    }
  });

  it('lets every connection use a statement another connection prepared under the same name', async () => {
    const [first, second] = await Promise.all([connect(), connect()]);
    const statement = { name: 'counted_above', text: 'select count(*)::integer as n from counted where id > $1' };
    await first.query('insert into counted values (10), (20), (30)');

    const [fromFirst, fromSecond] = await Promise.all([first.query({ ...statement, values: [15] }), second.query({ ...statement, values: [25] })]);
    const fromThird = await (await connect()).query({ ...statement, values: [5] });

    expect([fromFirst.rows[0].n, fromSecond.rows[0].n, fromThird.rows[0].n]).toEqual([2, 1, 3]);
    // A different statement under a name the session holds is refused, as PostgreSQL refuses it.
    await expect((await connect()).query({ name: 'counted_above', text: 'select $1::integer as n', values: [1] })).rejects.toThrow(/already exists/);
    await first.query('delete from counted');
  });

  it('rolls back the open transaction of a connection that ends, and serves the others after it', async () => {
    const [leaving, staying] = await Promise.all([connect(), connect()]);
    await leaving.query('begin');
    await leaving.query('insert into counted values (7)');

    const counted = count(staying);
    await leaving.end();

    expect(await counted).toBe(0);
    await staying.query('begin');
    await staying.query('insert into counted values (8)');
    await staying.query('commit');
    expect(await count(staying)).toBe(1);
    await staying.query('delete from counted');
  });

  it("keeps one connection's failed statement from the others, and the connection goes on", async () => {
    const [failing, other] = await Promise.all([connect(), connect()]);

    const [failed, fine] = await Promise.allSettled([failing.query('select $1::integer / 0 as n', [1]), other.query('select $1::integer as n', [5])]);

    expect(failed.status === 'rejected' && failed.reason.message).toBe('division by zero');
    expect(fine.status === 'fulfilled' && fine.value.rows[0].n).toBe(5);
    expect((await failing.query('select $1::integer as n', [6])).rows[0].n).toBe(6);
  });

  it('takes a photo-sized parameter whole, in the many pieces the socket brings it', async () => {
    const client = await connect();
    const photo = Buffer.alloc(6 * 1024 * 1024, 7);
    photo.write('end', photo.length - 3);

    const { rows } = await client.query<{ size: number; tail: string }>("select length($1::bytea) as size, encode(substring($1::bytea from length($1::bytea) - 2), 'escape') as tail", [photo]);

    expect(rows[0]).toEqual({ size: photo.length, tail: 'end' });
  });

  // The pool listener (listener.ts) listens on every connection of the pool for this reason.
  it('brings a NOTIFY back on the connection whose commit sent it, whichever connection listened', async () => {
    const [listening, notifying] = await Promise.all([connect(), connect()]);
    const heard: string[] = [];
    listening.on('notification', (message) => heard.push(`listening: ${message.payload}`));
    notifying.on('notification', (message) => heard.push(`notifying: ${message.payload}`));
    await listening.query('listen session_test');

    await notifying.query('begin');
    await notifying.query("select pg_notify('session_test', 'saved')");
    await notifying.query('commit');

    expect(heard).toEqual(['notifying: saved']);
    await listening.query('unlisten session_test');
  });
});
