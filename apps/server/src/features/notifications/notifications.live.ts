import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { LIVE_CLOSE_CODES, type LiveNotification, type NotificationType } from '@siteboard/shared';
import { type Db, ForbiddenError, NotFoundError, PasswordChangeRequiredError, UnauthorizedError } from '../../platform';
import { findActiveIdentity, findActiveLogins } from '../auth/auth.queries';
import type { Tokens } from '../auth/auth.tokens';
import { userExists } from '../users/users.queries';
import { USER_NOT_FOUND } from '../users/users.rules';
import { findDeliveries, type NotificationAnnouncement } from './notifications.queries';
import { actorNameOf, textFor } from './notifications.rules';

/** A client that lets this much pile up unsent is not reading: it is cut off rather than held in memory. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
export const DEFAULT_PING_INTERVAL_MS = 30_000;
export const NOT_YOUR_CONNECTION = 'This live connection belongs to another user.';
/** Live connections one user may hold on an instance (tabs, devices); a new one past this closes their oldest. */
export const MAX_SOCKETS_PER_USER = 10;
/** A normal closure: the client does not reconnect (the user has newer connections open). */
const CLOSED_FOR_A_NEWER = 1000;

/** Who a live connection belongs to; the login (family) is re-checked while it stays open. */
export interface LiveLogin {
  userId: number;
  companyId: number;
  family: string;
}

/**
 * The upgrade is allowed only with a valid access token (`?token=`) of an active login, of the
 * very user and e-mail the path names: 401 otherwise, 403 for another user's path or for a user
 * who must still change the password an admin set.
 */
export async function authenticateLiveConnection(
  deps: { db: Db; tokens: Tokens },
  path: { userId: number; email: string },
  token: string | undefined,
): Promise<LiveLogin> {
  const claims = token ? deps.tokens.verifyAccess(token) : undefined;
  const identity = claims && (await findActiveIdentity(deps.db, claims));
  if (!claims || !identity) throw new UnauthorizedError('Token is invalid or expired.');
  if (identity.mustChangePassword) throw new PasswordChangeRequiredError();
  // Another user's path: a colleague's is a 403, anyone else's (another company's, no one's) a 404; only the refusal asks.
  if (identity.id !== path.userId && !(await userExists(deps.db, identity.companyId, path.userId))) throw new NotFoundError(USER_NOT_FOUND);
  if (identity.id !== path.userId || identity.email.toLowerCase() !== path.email.trim().toLowerCase()) throw new ForbiddenError(NOT_YOUR_CONNECTION);
  return { userId: identity.id, companyId: identity.companyId, family: claims.family };
}

const announcementSchema = z.object({ id: z.number().int(), company: z.number().int(), users: z.array(z.number().int()) });

interface LiveClient extends LiveLogin {
  socket: WebSocket;
  alive: boolean;
  /**
   * While the change feed has named this login's user or family (signed out, password changed,
   * deleted) and it is not yet checked again: what arrives for it is held here, sent once it is
   * found still live, dropped with the socket otherwise. Undefined when nothing is in doubt.
   */
  held?: LiveNotification[];
  /** Counts the times it was named: a check answers only for the naming it started after. */
  named: number;
}

export type LiveHub = ReturnType<typeof createLiveHub>;

/**
 * This instance's live connections. Every notification reaches it as a NOTIFY (whichever
 * instance wrote it), is loaded once, and goes to the local sockets of its recipients in its
 * company. A login the change feed names (its user or family changed: signed out, password
 * changed, deleted) gets nothing until it is checked again, at once: closed (4401) if it ended,
 * sent what it was held otherwise. A heartbeat pings every socket, cuts off those that missed the
 * last pong, and checks every login again (a change the feed may have missed).
 */
export function createLiveHub(options: { db: Db; log: FastifyBaseLogger; pingIntervalMs?: number; onPushed?: () => void }) {
  const { db, log } = options;
  const byUser = new Map<number, Set<LiveClient>>();
  let beating = false;
  const heartbeat = setInterval(() => void beat(), options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS);
  heartbeat.unref();

  function clients(): LiveClient[] {
    return [...byUser.values()].flatMap((set) => [...set]);
  }

  function remove(client: LiveClient) {
    const set = byUser.get(client.userId);
    set?.delete(client);
    if (set?.size === 0) byUser.delete(client.userId);
  }

  function send(client: LiveClient, message: LiveNotification) {
    if (client.held) {
      client.held.push(message);
      return;
    }
    const { socket } = client;
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount <= MAX_BUFFERED_BYTES) {
      socket.send(JSON.stringify(message));
      options.onPushed?.();
    }
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      log.warn({ userId: client.userId }, 'live client not reading: connection terminated');
      socket.terminate();
    }
  }

  let pending: string[] = [];
  /** Deliveries loaded per statement: a mass announcement goes out in a few statements. */
  const DELIVERY_BATCH = 2_000;

  async function flush() {
    const payloads = pending;
    pending = [];
    const wanted: { id: number; company: number; userId: number }[] = [];
    for (const payload of payloads) {
      let parsed;
      try {
        parsed = announcementSchema.safeParse(JSON.parse(payload));
      } catch {
        parsed = undefined;
      }
      if (!parsed?.success) {
        log.warn({ payload }, 'ignored a malformed notification announcement');
        continue;
      }
      const announcement: NotificationAnnouncement = parsed.data;
      for (const userId of announcement.users) {
        if ([...(byUser.get(userId) ?? [])].some((client) => client.companyId === announcement.company)) wanted.push({ id: announcement.id, company: announcement.company, userId });
      }
    }
    for (let start = 0; start < wanted.length; start += DELIVERY_BATCH) {
      try {
        for (const row of await findDeliveries(db, wanted.slice(start, start + DELIVERY_BATCH))) {
          const message: LiveNotification = {
            id: row.recipientId,
            type: row.type as NotificationType,
            // In the recipient's language: the browser shows this text as the desktop notification too.
            message: textFor(row, row.language),
            created_by: row.createdBy,
            created_by_name: actorNameOf(row),
            timestamp: row.createdAt,
            subtask_id: row.subtaskId,
          };
          for (const client of byUser.get(row.userId) ?? []) if (client.companyId === row.companyId) send(client, message);
        }
      } catch (error) {
        log.error({ err: error }, 'delivering live notifications failed');
      }
    }
  }

  /**
   * Asks whether these clients' logins are still live: closes those that ended; sends the others what
   * was held for them, unless the change feed named them again while it asked.
   */
  async function checkLogins(checked: LiveClient[]) {
    const named = new Map(checked.map((client) => [client, client.named]));
    const active = await findActiveLogins(db, uniqueLogins(checked));
    for (const client of checked) {
      if (!active.has(`${client.userId}:${client.family}`)) {
        client.held = undefined;
        client.socket.close(LIVE_CLOSE_CODES.unauthorized, 'Login ended');
      } else if (client.held && client.named === named.get(client)) {
        const held = client.held;
        client.held = undefined;
        for (const message of held) send(client, message);
      }
    }
  }

  let checking = false;
  async function checkNamed() {
    if (checking) return;
    checking = true;
    try {
      for (;;) {
        const doubted = clients().filter((client) => client.held);
        if (doubted.length === 0) return;
        await checkLogins(doubted);
        // Then again for those named while it asked (named again, or named for the first time): until none waits.
      }
    } catch (error) {
      // Asked again at the next heartbeat; meanwhile they are sent nothing.
      log.warn({ err: error }, 'checking live connections whose login changed failed');
    } finally {
      checking = false;
    }
  }

  /** The change feed named these logins: hold what comes for them until they are checked again. */
  function doubt(named: LiveClient[]) {
    for (const client of named) {
      client.held ??= [];
      client.named++;
    }
    if (named.length > 0) setImmediate(() => void checkNamed());
  }

  async function beat() {
    if (beating) return;
    beating = true;
    try {
      const open = clients();
      for (const client of open) {
        if (!client.alive) {
          client.socket.terminate();
          continue;
        }
        client.alive = false;
        client.socket.ping();
      }
      if (open.length > 0) await checkLogins(open);
    } catch (error) {
      log.warn({ err: error }, 'live connection heartbeat failed');
    } finally {
      beating = false;
    }
  }

  return {
    add(socket: WebSocket, login: LiveLogin) {
      const client: LiveClient = { ...login, socket, alive: true, named: 0 };
      const set = byUser.get(login.userId) ?? new Set();
      // A set keeps insertion order: the first is the oldest.
      for (const oldest of [...set].slice(0, Math.max(0, set.size - MAX_SOCKETS_PER_USER + 1))) {
        set.delete(oldest);
        oldest.socket.close(CLOSED_FOR_A_NEWER, 'Too many live connections: this, the oldest, was closed');
      }
      set.add(client);
      byUser.set(login.userId, set);
      socket.on('pong', () => (client.alive = true));
      socket.on('close', () => remove(client));
    },

    /**
     * The change feed's handler for one announcement: never throws (a bad payload or a failed load
     * is logged). Announcements that arrive together (a sweep, a mass reassignment: thousands at
     * once) are loaded together, a bounded batch per statement, not one statement each.
     */
    deliver(payload: string) {
      pending.push(payload);
      if (pending.length === 1) setImmediate(() => void flush());
    },

    /** The change feed's handler for a changed user (`u`): their logins are checked again before anything more is sent to them. */
    userChanged(detail: string) {
      doubt([...(byUser.get(Number(detail)) ?? [])]);
    },

    /** The change feed's handler for a changed login (`f`, a refresh-token family). */
    loginChanged(family: string) {
      doubt(clients().filter((client) => client.family === family));
    },

    /**
     * After this instance's listening connection came back: what was announced meanwhile never
     * reached it, so every socket is closed (1012) and its client, reconnecting, reloads its list
     * (the web's bell does on every reopen), instead of a bell that silently lacks a notification.
     */
    missedSome() {
      const open = clients();
      for (const client of open) client.socket.close(LIVE_CLOSE_CODES.missedSome, 'Notifications may have been missed: reconnect and reload');
      if (open.length > 0) log.info({ sockets: open.length }, 'live connections closed to reload what the listening connection missed');
    },

    /** For diagnostics and tests: how many sockets this instance holds. */
    size(): number {
      return clients().length;
    },

    close() {
      clearInterval(heartbeat);
    },
  };
}

function uniqueLogins(clients: LiveClient[]): LiveLogin[] {
  const byKey = new Map(clients.map((client) => [`${client.userId}:${client.family}`, { userId: client.userId, companyId: client.companyId, family: client.family }]));
  return [...byKey.values()];
}
