import net from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import type { HostLogLevel } from './embedded-protocol';

/**
 * PGlite's one session served to any number of connections on a Unix socket, one at a time by
 * turns, so that the server can keep statements waiting at the database (decision record 100).
 *
 * With one connection, the database idles between two statements for as long as the server's
 * event loop takes to read an answer and send the next; under load that was a third of the
 * connection's time. With several, the next statement is already here when one ends. The rules
 * that keep connections out of each other's way in one session:
 *
 * - A connection holds the session from its first message until it is at rest: its last message
 *   was a Sync or a simple query, and no transaction is open. A transaction, or a statement in
 *   parts (Parse, Bind, Execute, … Sync), runs with no other connection's message in between; the
 *   others wait their turn, first come, first served.
 * - Prepared statements belong to the session, so all connections share them: a Parse of a name
 *   the session already holds, for the same statement, is answered here (ParseComplete) instead of
 *   failing with "already exists" (node-postgres remembers what it prepared per connection).
 * - A connection that ends while it holds the session leaves it at rest: its unfinished statement
 *   failed and rolled back, its open transaction rolled back.
 * - A connection takes its turn with a whole statement (up to its Sync or Flush), not before.
 * - A connection that holds the session with nothing to run (inside a transaction, or between the
 *   parts of a statement) while others wait is ended after `holdLimitMs` (10 s), as PostgreSQL's
 *   idle_in_transaction_session_timeout ends one (SQLSTATE 25P03), and its transaction rolled back:
 *   a request stuck inside its transaction would otherwise stop every other one for good.
 *
 * PGlite's own socket server (`@electric-sql/pglite-socket`) runs each message as it comes, from
 * any connection: two connections' Parse and Bind would interleave in the one session.
 */
export class EmbeddedSessionServer {
  readonly #db: PGlite;
  readonly #path: string;
  readonly #server: net.Server;
  readonly #connections = new Set<Connection>();
  /** Prepared statements in the session: name → its Parse message's body (statement and types). */
  readonly #prepared = new Map<string, Buffer>();
  /** Connections with messages, waiting for the session, in the order they asked. */
  readonly #waiting: Connection[] = [];
  #holder: Connection | undefined;
  #stopping = false;
  /** PGlite failed outside PostgreSQL's error handling (a FATAL error, a trap): nothing more runs in it. */
  #failed = false;
  /** A DEALLOCATE or DISCARD ran: which statements the session holds is read again once it is at rest. */
  #stale = false;
  #running: Promise<void> | undefined;
  #nextId = 1;
  readonly #holdLimitMs: number;
  /** Runs while the holder has nothing to run and others wait: ends the holder when it fires. */
  #holdTimer: NodeJS.Timeout | undefined;

  /** Where what it has to say goes: the server's log, through the host's channel (embedded-host.ts). */
  readonly #report: (level: HostLogLevel, message: string) => void;

  constructor(db: PGlite, path: string, options: { holdLimitMs?: number; report?: (level: HostLogLevel, message: string) => void } = {}) {
    this.#db = db;
    this.#path = path;
    this.#holdLimitMs = options.holdLimitMs ?? HOLD_LIMIT_MS;
    this.#report = options.report ?? ((level, message) => console[level](message));
    this.#server = net.createServer((socket) => this.#accept(socket));
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(this.#path, () => {
        this.#server.off('error', reject);
        resolve();
      });
    });
  }

  /** Stops accepting, ends every connection, and leaves the session at rest for the checkpoint that follows. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#clearHoldTimer();
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    for (const connection of this.#connections) connection.socket.destroy();
    await this.#running;
    if (this.#holder && !this.#failed) await this.#leaveAtRest(this.#holder);
    this.#release();
    await closed;
  }

  #accept(socket: net.Socket) {
    const connection: Connection = { id: this.#nextId++, socket, input: [], received: 0, needed: 4, messages: [], started: false, atRest: true, failed: false, ended: false };
    this.#connections.add(connection);
    socket.setNoDelay(true);
    socket.on('data', (data) => {
      if (connection.ended) return;
      connection.input.push(data);
      connection.received += data.length;
      // A photo's Bind arrives in many chunks: they are joined once it is whole, not at each chunk.
      if (connection.received >= connection.needed) this.#frame(connection);
    });
    socket.on('error', () => {});
    socket.on('close', () => this.#ended(connection));
  }

  /** Cuts the connection's input into whole messages and queues it for the session. */
  #frame(connection: Connection) {
    const input = connection.input.length === 1 ? connection.input[0]! : Buffer.concat(connection.input);
    let at = 0;
    for (;;) {
      // Before the startup message, a message has no type byte: its length comes first.
      const header = connection.started ? 5 : 4;
      connection.needed = header;
      if (input.length - at < header) break;
      const length = connection.started ? 1 + input.readInt32BE(at + 1) : input.readInt32BE(at);
      // A length shorter than its own header is no PostgreSQL client's: the connection ends.
      if (length < (connection.started ? 5 : 8)) {
        connection.socket.destroy();
        return;
      }
      connection.needed = length;
      if (input.length - at < length) break;
      const message = input.subarray(at, at + length);
      at += length;
      if (!connection.started) {
        const code = message.readInt32BE(4);
        // SSL and GSS encryption requests: "no", and the client goes on without (the socket is private).
        if (code === SSL_REQUEST || code === GSS_REQUEST) {
          connection.socket.write('N');
          continue;
        }
        if (code === CANCEL_REQUEST) {
          connection.socket.destroy();
          return;
        }
        connection.started = true;
      }
      connection.messages.push(message);
    }
    const rest = input.subarray(at);
    connection.input = rest.length > 0 ? [rest] : [];
    connection.received = rest.length;
    if (ready(connection) && connection !== this.#holder && !this.#waiting.includes(connection)) this.#waiting.push(connection);
    this.#run();
  }

  #ended(connection: Connection) {
    connection.ended = true;
    connection.messages = [];
    this.#connections.delete(connection);
    const waiting = this.#waiting.indexOf(connection);
    if (waiting >= 0) this.#waiting.splice(waiting, 1);
    this.#run();
  }

  #run() {
    this.#running ??= this.#serve().finally(() => (this.#running = undefined));
  }

  /** Runs messages while any connection has some, the holder's first. */
  async #serve() {
    while (!this.#stopping && !this.#failed) {
      const holder = this.#holder;
      if (holder?.ended) {
        await this.#leaveAtRest(holder);
        this.#release();
        continue;
      }
      const connection = holder ?? this.#waiting.shift();
      // The holder may be between two statements of its transaction, or still sending one (a
      // photo's Bind): the session waits for it, for a while. A waiting connection has a whole statement.
      if (!connection || !ready(connection)) {
        if (connection && this.#waiting.length > 0) this.#holdTimer ??= setTimeout(() => this.#endHolder(connection), this.#holdLimitMs);
        return;
      }
      this.#clearHoldTimer();
      this.#holder = connection;
      const batch = takeBatch(connection.messages);
      try {
        await this.#execute(connection, batch);
      } catch (error) {
        this.#fail(error as Error);
        return;
      }
      if (connection.atRest && !this.#db.isInTransaction()) {
        if (this.#stale) await this.#readPrepared();
        this.#release();
        if (ready(connection) && !connection.ended) this.#waiting.push(connection);
      }
    }
  }

  #release() {
    this.#clearHoldTimer();
    this.#holder = undefined;
  }

  #clearHoldTimer() {
    clearTimeout(this.#holdTimer);
    this.#holdTimer = undefined;
  }

  /** The holder kept the session past the hold limit with nothing to run while others waited: it ends, as PostgreSQL ends one. */
  #endHolder(connection: Connection) {
    this.#holdTimer = undefined;
    if (connection !== this.#holder || connection.ended || ready(connection) || this.#waiting.length === 0) return;
    const held = `${Math.round(this.#holdLimitMs / 100) / 10} s with nothing to run while ${this.#waiting.length} other connections waited`;
    this.#report('warn', `Embedded database: connection ${connection.id} held the session ${held}: ended, its transaction rolled back.`);
    connection.socket.end(fatalError('25P03', `terminating connection due to idle-in-transaction timeout (it held the embedded database ${held})`));
    this.#ended(connection);
  }

  /**
   * PGlite failed outside PostgreSQL's own error handling (a FATAL error such as a lost protocol
   * synchronisation, a WebAssembly trap): it cannot run another statement (one more call would spin
   * on the same error), so every connection ends and none is accepted; the server's queries fail.
   */
  #fail(error: Error) {
    this.#failed = true;
    this.#report('error', `The embedded database failed and stopped serving: ${error.message}`);
    this.#server.close();
    for (const connection of this.#connections) connection.socket.destroy();
  }

  /** Which statements the session holds, read again after a DEALLOCATE or DISCARD (whatever they named, and whether they ran). */
  async #readPrepared() {
    this.#stale = false;
    try {
      const { rows } = await this.#db.query<{ name: string }>('select name from pg_prepared_statements');
      const held = new Set(rows.map((row) => row.name));
      for (const name of this.#prepared.keys()) if (!held.has(name)) this.#prepared.delete(name);
    } catch (error) {
      // Not knowing, no Parse is answered here: a name the session still holds then fails "already exists".
      this.#report('warn', `Embedded database: could not read the prepared statements: ${(error as Error).message}`);
      this.#prepared.clear();
    }
  }

  /** Runs a batch of one connection's messages (takeBatch) in one call to PGlite. */
  async #execute(connection: Connection, batch: Buffer[]) {
    // The startup message begins with its length, whose first byte is 0; no other message type is 0.
    const first = batch[0]![0]!;
    const last = batch.at(-1)![0]!;
    if (first === TERMINATE) {
      connection.socket.end();
      connection.ended = true;
      connection.messages = [];
      return;
    }
    if (first === CLOSE && batch[0]![5] === STATEMENT && this.#prepared.has(cString(batch[0]!, 6))) {
      // A statement of the session, which other connections use: it stays (node-postgres closes
      // one only when it could not send a Bind for it, a fault of that call's values).
      connection.atRest = false;
      if (!connection.failed) connection.socket.write(CLOSE_COMPLETE);
      return;
    }
    connection.atRest = last === SYNC || last === QUERY || last === 0;
    let prepares: { name: string; body: Buffer } | undefined;
    if (first === PARSE) {
      const { name, body } = parseMessage(batch[0]!);
      if (name !== '' && this.#prepared.get(name)?.equals(body)) {
        // Already prepared in the session: answered here, unless PostgreSQL would skip it (an earlier message of this statement failed).
        if (!connection.failed) connection.socket.write(PARSE_COMPLETE);
        batch = batch.slice(1);
      } else if (name !== '') {
        prepares = { name, body };
      }
    }
    if (batch.length === 0) return;
    const answer = await this.#send(connection, batch.length === 1 ? batch[0]! : Buffer.concat(batch));
    // A Parse first in the batch is answered first: ParseComplete, or the error that skipped the rest.
    if (prepares && firstReply(answer) === PARSE_COMPLETE[0]) this.#prepared.set(prepares.name, Buffer.from(prepares.body));
    if (last === SYNC || last === QUERY) connection.failed = false;
    else if (first !== 0 && hasError(answer)) connection.failed = true;
    if (first === QUERY && /\b(deallocate|discard)\b/i.test(cString(batch[0]!, 5))) this.#stale = true;
  }

  /** Runs messages in PGlite (under its lock, which an online backup also takes) and sends its answer. */
  async #send(connection: Connection, message: Buffer): Promise<Buffer> {
    const chunks: Buffer[] = [];
    await this.#db.runExclusive(() =>
      this.#db.execProtocolRawStream(new Uint8Array(message.buffer, message.byteOffset, message.length), {
        onRawData: (data) => void chunks.push(Buffer.from(data)),
      }),
    );
    const answer = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    if (answer.length > 0 && !connection.ended) connection.socket.write(answer);
    return answer;
  }

  /** A connection gone while it held the session: its statement ended, its transaction rolled back. */
  async #leaveAtRest(connection: Connection) {
    try {
      // A Sync alone would commit the statement's implicit transaction: an Execute of a portal that
      // does not exist fails it first, and the Sync then rolls it back, as PostgreSQL does for a
      // client gone before its Sync. (Skipping to the Sync already, PostgreSQL ignores the Execute.)
      if (!connection.atRest) await this.#send(connection, ABANDON_STATEMENT);
      if (this.#db.isInTransaction()) await this.#send(connection, ROLLBACK_MESSAGE);
    } catch (error) {
      this.#report('warn', `Embedded database: could not roll back after connection ${connection.id} ended: ${(error as Error).message}`);
    }
    connection.atRest = true;
  }
}

interface Connection {
  id: number;
  socket: net.Socket;
  /** Bytes received that do not make a whole message yet, as they came, and how many. */
  input: Buffer[];
  received: number;
  /** How many bytes the next whole message needs (its header, then its length). */
  needed: number;
  /** Whole messages waiting for the session. */
  messages: Buffer[];
  /** Whether the startup message has come (every message after it starts with its type). */
  started: boolean;
  /** Whether its last message ended what it was doing (a Sync, a simple query, the startup). */
  atRest: boolean;
  /** Whether a message since the last Sync failed (PostgreSQL skips the rest until the Sync). */
  failed: boolean;
  ended: boolean;
}

/** How long a connection may hold the session with nothing to run while others wait (decision record 100). */
export const HOLD_LIMIT_MS = 10_000;

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const [PARSE, SYNC, FLUSH, QUERY, TERMINATE, CLOSE, STATEMENT, ERROR] = ['P', 'S', 'H', 'Q', 'X', 'C', 'S', 'E'].map((letter) => letter.charCodeAt(0)) as [number, number, number, number, number, number, number, number];
/** Messages the backend sends of its own accord: NotificationResponse, NoticeResponse, ParameterStatus. */
const ASYNCHRONOUS = new Set(['A', 'N', 'S'].map((letter) => letter.charCodeAt(0)));
/** Messages run in a call of their own (0: the startup message). */
const ALONE = new Set([QUERY, TERMINATE, CLOSE, 0]);
/** Messages after which a connection's messages can run: a statement's end, or one that runs alone. */
const ENDS = new Set([SYNC, FLUSH, QUERY, TERMINATE, 0]);
const PARSE_COMPLETE = protocolMessage('1');
const CLOSE_COMPLETE = protocolMessage('3');
/** An Execute of a portal no one opened (all its rows), then a Sync. */
const ABANDON_STATEMENT = Buffer.concat([protocolMessage('E', Buffer.from('\u0001abandoned\0\0\0\0\0')), protocolMessage('S')]);
const ROLLBACK_MESSAGE = protocolMessage('Q', Buffer.from('rollback\0'));

/** A protocol message: its type, its length, its body. */
export function protocolMessage(type: string, body: Buffer = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([header, body]);
}

/** An ErrorResponse of severity FATAL: PostgreSQL's last word on a connection it ends. */
function fatalError(code: string, text: string): Buffer {
  const fields = [`SFATAL`, `VFATAL`, `C${code}`, `M${text}`].map((field) => Buffer.from(`${field}\0`));
  return protocolMessage('E', Buffer.concat([...fields, Buffer.from([0])]));
}

/** Whether a connection's messages hold a whole statement (up to a Sync or Flush), or a message that runs alone. */
function ready(connection: Connection): boolean {
  return connection.messages.some((message) => ENDS.has(message[0]!));
}

/**
 * The next messages to run in one call: up to the end of a statement (Sync, or Flush for a portal
 * read in parts), and no further. A Parse comes only first, so its answer comes first (whether the
 * session now holds the statement); a simple query, a Close, the startup and Terminate go alone.
 */
function takeBatch(messages: Buffer[]): Buffer[] {
  let count = 1;
  if (!ALONE.has(messages[0]![0]!)) {
    for (; count < messages.length; count++) {
      const previous = messages[count - 1]![0]!;
      const next = messages[count]![0]!;
      if (previous === SYNC || previous === FLUSH || next === PARSE || ALONE.has(next)) break;
    }
  }
  return messages.splice(0, count);
}

/** A zero-terminated string at `at`. */
function cString(message: Buffer, at: number): string {
  const end = message.indexOf(0, at);
  return message.toString('utf8', at, end < 0 ? message.length : end);
}

/** A Parse message's statement name, and the rest of it (the statement and its parameter types). */
function parseMessage(message: Buffer): { name: string; body: Buffer } {
  const end = message.indexOf(0, 5);
  return { name: message.toString('utf8', 5, end), body: message.subarray(end + 1) };
}

/**
 * The type of an answer's first message that replies to what was sent: a notification, a notice
 * or a parameter's new value can come before it (a NOTIFY committed by the last statement).
 */
function firstReply(answer: Buffer): number | undefined {
  for (const type of messageTypes(answer)) if (!ASYNCHRONOUS.has(type)) return type;
  return undefined;
}

/** Whether an answer holds an ErrorResponse. */
function hasError(answer: Buffer): boolean {
  for (const type of messageTypes(answer)) if (type === ERROR) return true;
  return false;
}

/** The types of an answer's messages, in order. */
function* messageTypes(answer: Buffer): Generator<number> {
  for (let at = 0; at + 5 <= answer.length; at += 1 + answer.readInt32BE(at + 1)) yield answer[at]!;
}
