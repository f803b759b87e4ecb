import pg from 'pg';

const LISTEN_RETRY_FIRST_MS = 500;
const LISTEN_RETRY_MAX_MS = 30_000;

export function assertChannel(channel: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Invalid channel name: ${channel}`);
  return channel;
}

/**
 * The one connection a PostgreSQL instance LISTENs on, outside the pool (a pooled connection
 * would be handed to queries). When it is lost it reconnects with backoff and LISTENs again;
 * what was announced meanwhile is not replayed (clients refetch when they reconnect).
 */
export function createListener(url: string) {
  const handlers = new Map<string, Set<(payload: string) => void>>();
  let current: { client: pg.Client; channels: Set<string> } | undefined;
  let connecting: Promise<{ client: pg.Client; channels: Set<string> }> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryMs = LISTEN_RETRY_FIRST_MS;
  let closed = false;

  async function connect() {
    const client = new pg.Client({ connectionString: url, application_name: 'siteboard-listener' });
    const connection = { client, channels: new Set<string>() };
    client.on('notification', (message) => {
      for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    client.on('error', (error) => {
      console.warn(`PostgreSQL listening connection lost: ${error.message}`);
      lost(connection);
    });
    client.on('end', () => lost(connection));
    await client.connect();
    for (const channel of handlers.keys()) await subscribe(connection, channel);
    return connection;
  }

  async function subscribe(connection: { client: pg.Client; channels: Set<string> }, channel: string) {
    if (connection.channels.has(channel)) return;
    await connection.client.query(`listen ${channel}`);
    connection.channels.add(channel);
  }

  function lost(connection: { client: pg.Client }) {
    if (current?.client !== connection.client) return;
    current = undefined;
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
      } catch (error) {
        console.warn(`PostgreSQL listening connection: reconnecting failed (${(error as Error).message}); retrying in ${retryMs} ms`);
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
    async listen(channel: string, handler: (payload: string) => void) {
      assertChannel(channel);
      const set = handlers.get(channel) ?? new Set();
      set.add(handler);
      handlers.set(channel, set);
      await subscribe(await ensureConnected(), channel);
      return async () => {
        set.delete(handler);
        if (set.size > 0 || handlers.get(channel) !== set) return;
        handlers.delete(channel);
        if (current?.channels.delete(channel)) await current.client.query(`unlisten ${channel}`).catch(() => {});
      };
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      const connection = current ?? (await connecting?.catch(() => undefined));
      current = undefined;
      await connection?.client.end().catch(() => {});
    },
  };
}
