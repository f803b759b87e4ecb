import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedSessionServer, protocolMessage } from './embedded-session-server';

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

  it('rolls back the statement of a connection that ends before its Sync, as PostgreSQL does', async () => {
    const watching = await connect();
    const socket = net.connect(path.join(socketDir, '.s.PGSQL.5432'));
    const answers: Buffer[] = [];
    socket.on('data', (data) => answers.push(data));
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(startupMessage());
    await until(() => Buffer.concat(answers).includes('Z'));
    // An insert sent up to a Flush (its Sync still to come), answered, and then the client is gone.
    socket.write(Buffer.concat([message('P', '\0insert into counted values (41)\0\0\0'), message('B', '\0\0\0\0\0\0\0\0'), message('E', '\0\0\0\0\0'), message('H', '')]));
    await until(() => Buffer.concat(answers).includes('INSERT'));
    socket.destroy();

    expect(await count(watching)).toBe(0);
  });

  it("keeps a statement for every connection when one connection closes it (node-postgres does when it cannot send a call's values)", async () => {
    const [first, second] = await Promise.all([connect(), connect()]);
    const statement = { name: 'echoed', text: 'select $1::text as v' };
    await first.query({ ...statement, values: ['a'] });
    await second.query({ ...statement, values: ['b'] });

    const unsendable = { toPostgres: () => { throw new Error('no text for this value'); } };
    await expect(first.query({ ...statement, values: [unsendable] })).rejects.toThrow('no text for this value');

    expect((await second.query({ ...statement, values: ['c'] })).rows[0].v).toBe('c');
    expect((await first.query({ ...statement, values: ['d'] })).rows[0].v).toBe('d');
  });

  it('knows which statements the session holds after a DEALLOCATE that failed and after a DISCARD ALL', async () => {
    const [first, second] = await Promise.all([connect(), connect()]);
    const statement = { name: 'kept_or_not', text: 'select $1::integer + 1 as n' };
    await first.query({ ...statement, values: [1] });
    await first.query('begin');
    await expect(first.query('select 1 / 0')).rejects.toThrow('division by zero');
    await expect(first.query('deallocate kept_or_not')).rejects.toThrow(/aborted/);
    await first.query('rollback');

    expect((await second.query({ ...statement, values: [2] })).rows[0].n).toBe(3);

    await first.query('discard all');
    const third = await connect();
    expect((await third.query({ ...statement, values: [3] })).rows[0].n).toBe(4);
  });
});

describe('a connection that holds the session with nothing to run', () => {
  // A request stuck inside its transaction (awaiting something that never comes) would otherwise
  // hold every other connection's statements for good.
  it('is ended after the hold limit while others wait, its transaction rolled back, and the others go on', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-session-test-'));
    const held = await PGlite.create();
    const heldServer = new EmbeddedSessionServer(held, path.join(dir, '.s.PGSQL.5432'), { holdLimitMs: 300 });
    await heldServer.start();
    const [stuck, waiting, alone] = [0, 1, 2].map(() => new pg.Client({ host: dir, user: 'postgres', database: 'postgres' })) as [pg.Client, pg.Client, pg.Client];
    const errors: Error[] = [];
    stuck.on('error', (error) => errors.push(error));
    await Promise.all([stuck.connect(), waiting.connect(), alone.connect()]);
    try {
      await held.exec('create table kept (id integer)');
      await stuck.query('begin');
      await stuck.query('insert into kept values (1)');
      const started = Date.now();

      const count = await waiting.query<{ n: number }>('select count(*)::int as n from kept');

      // Not before the limit (it waited for the transaction), and without the stuck one's row.
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(count.rows).toEqual([{ n: 0 }]);
      await until(() => errors.length > 0);
      expect(errors[0]).toMatchObject({ severity: 'FATAL', code: '25P03' });
      await expect(stuck.query('select 1')).rejects.toThrow();
      // Alone with nothing waiting, a connection may keep its transaction open as long as it likes.
      await alone.query('begin');
      await new Promise((resolve) => setTimeout(resolve, 400));
      await alone.query('insert into kept values (2)');
      await alone.query('commit');
      expect((await waiting.query<{ n: number }>('select count(*)::int as n from kept')).rows).toEqual([{ n: 1 }]);
    } finally {
      await Promise.all([waiting.end(), alone.end()]);
      await heldServer.stop();
      await held.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a PGlite that fails outside PostgreSQL', () => {
  it('ends every connection instead of spinning, and stops', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-session-test-'));
    const failing = await PGlite.create();
    const failingServer = new EmbeddedSessionServer(failing, path.join(dir, '.s.PGSQL.5432'));
    await failingServer.start();
    const [client, other] = [new pg.Client({ host: dir, user: 'postgres', database: 'postgres' }), new pg.Client({ host: dir, user: 'postgres', database: 'postgres' })];
    for (const each of [client, other]) each.on('error', () => {});
    await Promise.all([client.connect(), other.connect()]);
    try {
      await failing.exec('create table copied (id integer)');
      // PGlite has no COPY from the client: the protocol's synchronisation is lost, a FATAL error.
      await expect(client.query('copy copied from stdin')).rejects.toThrow();
      // Run in PGlite after that, a statement would spin on the same error for ever, the thread with it.
      await expect(other.query('select 1')).rejects.toThrow();
      // A new connection is refused at once rather than left waiting on a database that cannot answer.
      const next = new pg.Client({ host: dir, user: 'postgres', database: 'postgres' });
      await expect(next.connect()).rejects.toThrow(/ENOENT|ECONNREFUSED|Connection terminated/);
      await failingServer.stop();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

const message = (type: string, body: string) => protocolMessage(type, Buffer.from(body, 'binary'));

function startupMessage(): Buffer {
  const body = Buffer.from('user\0postgres\0database\0postgres\0\0');
  const header = Buffer.alloc(8);
  header.writeInt32BE(8 + body.length, 0);
  header.writeInt32BE(196608, 4);
  return Buffer.concat([header, body]);
}

async function until(condition: () => boolean) {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
