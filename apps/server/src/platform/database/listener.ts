import pg from 'pg';
import { consoleLog, giveUpUnanswered, type DatabaseLog } from './statements';
import { DATABASE_TIMEOUTS, type DatabaseTimeouts } from './timeouts';

const LISTEN_RETRY_FIRST_MS = 500;
/**
 * At most this long between attempts while the database is away: readiness waits for this
 * connection, so a longer wait kept a recovered instance out of service (up to 30 s, an operator's
 * review found), and an attempt every few seconds per instance costs the database nothing.
 */
const LISTEN_RETRY_MAX_MS = 4_000;

export function assertChannel(channel: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Invalid channel name: ${channel}`);
  return channel;
}

interface Connection {
  client: pg.Client;
  channels: Set<string>;
  heartbeat?: NodeJS.Timeout;
}

/**
 * The one connection a PostgreSQL instance LISTENs on, outside the pool (a pooled connection
 * would be handed to queries). When it is lost it reconnects with backoff and LISTENs again;
 * what was announced meanwhile is not replayed (clients refetch when they reconnect).
 */
export function createListener(url: string, timeouts: DatabaseTimeouts = DATABASE_TIMEOUTS, log: DatabaseLog = consoleLog) {
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const watchers = new Set<(listening: boolean) => void>();
  let current: Connection | undefined;
  let connecting: Promise<Connection> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryMs = LISTEN_RETRY_FIRST_MS;
  let closed = false;

  /**
   * A statement on the listening connection, given up with its connection when no answer comes
   * within the connect time: a database gone quiet at any moment (even between the login and the
   * first LISTEN) ends in a reconnect, never in a wait that holds every later attempt.
   */
  function ask(client: pg.Client, text: string, values?: unknown[]) {
    const answer = client.query(text, values);
    giveUpUnanswered(client, answer, timeouts.connectMs);
    return answer;
  }

  async function connect() {
    const client = new pg.Client({ connectionString: url, application_name: 'siteboard-listener', connectionTimeoutMillis: timeouts.connectMs, keepAlive: true });
    const connection: Connection = { client, channels: new Set<string>() };
    client.on('notification', (message) => {
      for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    client.on('error', (error) => {
      log.warn({ err: error }, 'PostgreSQL listening connection lost');
      lost(connection);
    });
    client.on('end', () => lost(connection));
    await client.connect();
    for (const channel of handlers.keys()) await subscribe(connection, channel);
    let asking = false;
    connection.heartbeat = setInterval(() => {
      if (asking) return;
      asking = true;
      void ask(client, 'select 1')
        .catch(() => {})
        .finally(() => (asking = false));
    }, timeouts.heartbeatMs);
    connection.heartbeat.unref();
    return connection;
  }

  async function subscribe(connection: Connection, channel: string) {
    if (connection.channels.has(channel)) return;
    await ask(connection.client, `listen ${channel}`);
    connection.channels.add(channel);
  }

  function lost(connection: Connection) {
    clearInterval(connection.heartbeat);
    if (current?.client !== connection.client) return;
    current = undefined;
    for (const watcher of watchers) watcher(false);
    connection.client.end().catch(() => {});
    scheduleReconnect();
  }

  function scheduleReconnect() {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(async () => {
      retryTimer = undefined;
      try {
        await ensureConnected();
        retryMs = LISTEN_RETRY_FIRST_MS;
        for (const watcher of watchers) watcher(true);
      } catch (error) {
        log.warn({ err: error, retryMs }, 'PostgreSQL listening connection: reconnecting failed');
        retryMs = Math.min(retryMs * 2, LISTEN_RETRY_MAX_MS);
        scheduleReconnect();
      }
    }, retryMs);
    retryTimer.unref();
  }

  async function ensureConnected() {
    if (current) return current;
    connecting ??= connect().finally(() => (connecting = undefined));
    const connection = await connecting;
    if (closed) {
      await connection.client.end().catch(() => {});
      throw new Error('The database is closed.');
    }
    current = connection;
    return connection;
  }

  return {
    async listen(channel: string, handler: (payload: string) => void, onListening?: (listening: boolean) => void) {
      assertChannel(channel);
      const set = handlers.get(channel) ?? new Set();
      set.add(handler);
      handlers.set(channel, set);
      await subscribe(await ensureConnected(), channel);
      if (onListening) watchers.add(onListening);
      return async () => {
        if (onListening) watchers.delete(onListening);
        set.delete(handler);
        if (set.size > 0 || handlers.get(channel) !== set) return;
        handlers.delete(channel);
        if (current?.channels.delete(channel)) await ask(current.client, `unlisten ${channel}`).catch(() => {});
      };
    },
    /**
     * Sends a NOTIFY from the listening connection itself: it comes back after every announcement
     * committed before it, without waiting for (or being counted among) the pool's statements.
     */
    async notify(channel: string, payload: string) {
      const connection = await ensureConnected();
      await ask(connection.client, 'select pg_notify($1, $2)', [assertChannel(channel), payload]);
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      const connection = current ?? (await connecting?.catch(() => undefined));
      current = undefined;
      clearInterval(connection?.heartbeat);
      await connection?.client.end().catch(() => {});
    },
  };
}

/**
 * LISTEN on a pool of one connection, where every query also runs (the embedded database is one
 * session: a notification comes back on the connection whose commit sent it). That connection
 * lives as long as the database's thread: it is never idle-closed, and losing it means the
 * database itself is gone.
 */
export function createPoolListener(pool: pg.Pool) {
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const dispatch = (message: pg.Notification) => {
    for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
  };
  // Every connection the pool opens from now on, and the one it may already hold (it opened it for the migrations).
  pool.on('connect', (client) => client.on('notification', dispatch));
  pool.on('acquire', (client) => {
    if (!client.listeners('notification').includes(dispatch)) client.on('notification', dispatch);
  });
  return {
    async listen(channel: string, handler: (payload: string) => void) {
      assertChannel(channel);
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await pool.query(`listen ${channel}`);
      }
      set.add(handler);
      const subscribed = set;
      return async () => {
        subscribed.delete(handler);
        if (subscribed.size > 0 || handlers.get(channel) !== subscribed) return;
        handlers.delete(channel);
        if (!pool.ended) await pool.query(`unlisten ${channel}`).catch(() => {});
      };
    },
    async notify(channel: string, payload: string) {
      await pool.query('select pg_notify($1, $2)', [assertChannel(channel), payload]);
    },
  };
}
