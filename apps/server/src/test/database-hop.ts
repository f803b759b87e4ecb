import net from 'node:net';

export interface DatabaseHop {
  /** The database's address through the hop. */
  url: string;
  /** The database goes away, as a restart or a failover takes it: every connection is closed, and new ones are closed at once. */
  cut(): void;
  /**
   * The database goes quiet, as a frozen host or a network dropping packets does: connections still
   * open, and nothing crosses either way until `mend`, when what was held goes through.
   */
  goQuiet(): void;
  /** The database is back: connections go through again (a quiet spell's held bytes first). */
  mend(): void;
  close(): Promise<void>;
}

/**
 * A TCP hop between a server and its PostgreSQL database, so a test can take the database away or
 * silence it and bring it back, without touching the PostgreSQL other tests share.
 */
export async function startDatabaseHop(databaseUrl: string): Promise<DatabaseHop> {
  const target = new URL(databaseUrl);
  let state: 'open' | 'cut' | 'quiet' = 'open';
  const held: (() => void)[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (state === 'cut') {
      client.destroy();
      return;
    }
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    const forward = (from: net.Socket, to: net.Socket) =>
      from.on('data', (chunk) => {
        if (state === 'quiet') held.push(() => to.write(chunk));
        else to.write(chunk);
      });
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.host = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  const closeAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    url: url.toString(),
    cut() {
      state = 'cut';
      held.length = 0;
      closeAll();
    },
    goQuiet() {
      state = 'quiet';
    },
    mend() {
      state = 'open';
      for (const send of held.splice(0)) send();
    },
    async close() {
      closeAll();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
