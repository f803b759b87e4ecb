import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import type { LiveNotification } from '@siteboard/shared';
import type { App } from '../app';

/** Starts the app on a free local port (once) and answers its ws:// base. */
export async function listenLocally(app: App): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  return `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

export function livePath(user: { id: number; email: string }, token: string) {
  return `/ws/notifications/${user.id}/${encodeURIComponent(user.email)}/?token=${encodeURIComponent(token)}`;
}

/** A real WebSocket client that keeps every message it receives. */
export interface TestLiveClient {
  socket: WebSocket;
  received: LiveNotification[];
  /** The next message not yet taken, or a rejection after `timeoutMs`. */
  next(timeoutMs?: number): Promise<LiveNotification>;
  /** Resolves nothing-received after `ms`, or rejects with what arrived. */
  expectSilence(ms: number): Promise<void>;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

export class UpgradeRefused extends Error {
  constructor(readonly statusCode: number) {
    super(`upgrade refused with ${statusCode}`);
  }
}

/** `protocols`: what the client offers in Sec-WebSocket-Protocol (e.g. the token kept out of the URL). */
export function connectLive(base: string, path: string, protocols: string[] = []): Promise<TestLiveClient> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${base}${path}`, protocols, { perMessageDeflate: false });
    const received: LiveNotification[] = [];
    let taken = 0;
    const waiters: (() => void)[] = [];
    socket.on('message', (data) => {
      received.push(JSON.parse(String(data)) as LiveNotification);
      for (const wake of waiters.splice(0)) wake();
    });
    const closed = new Promise<{ code: number; reason: string }>((done) => socket.on('close', (code, reason) => done({ code, reason: String(reason) })));
    socket.on('unexpected-response', (_request, response) => {
      reject(new UpgradeRefused(response.statusCode ?? 0));
      socket.terminate();
    });
    socket.on('error', reject);
    socket.on('open', () =>
      resolve({
        socket,
        received,
        closed,
        close: () => socket.close(1000),
        next(timeoutMs = 2_000) {
          return new Promise((take, fail) => {
            const tryTake = () => {
              if (taken < received.length) {
                clearTimeout(timer);
                take(received[taken++]!);
                return true;
              }
              return false;
            };
            const timer = setTimeout(() => fail(new Error(`no live message within ${timeoutMs} ms`)), timeoutMs);
            if (!tryTake()) waiters.push(function retry() {
              if (!tryTake()) waiters.push(retry);
            });
          });
        },
        async expectSilence(ms) {
          const before = received.length;
          await new Promise((wait) => setTimeout(wait, ms));
          if (received.length > before) throw new Error(`expected no live message, got ${JSON.stringify(received.slice(before))}`);
        },
      }),
    );
  });
}

/** The HTTP status a refused upgrade answered with (throws if the upgrade succeeded). */
export async function refusedWith(base: string, path: string, protocols: string[] = []): Promise<number> {
  try {
    const client = await connectLive(base, path, protocols);
    client.close();
  } catch (error) {
    if (error instanceof UpgradeRefused) return error.statusCode;
    throw error;
  }
  throw new Error('the upgrade was accepted');
}
