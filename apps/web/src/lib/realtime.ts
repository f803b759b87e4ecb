import { LIVE_PROTOCOL, LIVE_TOKEN_PROTOCOL_PREFIX, type LiveNotification } from '@siteboard/shared';
import type { QueryClient } from '@tanstack/react-query';
import ReconnectingWebSocket from 'partysocket/ws';
import { useEffect, useRef } from 'react';
import { invalidateAfterSubtaskChange, queryRoots } from './query-keys';
import { storage } from './storage';

export const BACKOFF_START_MS = 500;
export const BACKOFF_MAX_MS = 30_000;
const NORMAL_CLOSURE = 1000;

/** Full-jitter-ish backoff: between half and all of 0.5 s doubling per attempt, at most 30 s. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_START_MS * 2 ** attempt);
  return ceiling / 2 + random() * (ceiling / 2);
}

export interface RealtimeHandlers {
  queryClient: QueryClient;
  /** Takes a push for the bell; false when it was seen already. */
  onNotification: (notification: LiveNotification) => boolean;
}

interface Identity {
  id: number;
  email: string;
}

/** Reads a push loosely: an unknown type still reaches the bell with the default icon. */
function parseMessage(data: unknown): LiveNotification | null {
  const value: unknown = JSON.parse(String(data));
  if (!value || typeof value !== 'object') return null;
  const message = value as Record<string, unknown>;
  if (typeof message.type !== 'string' || typeof message.message !== 'string') return null;
  return {
    id: typeof message.id === 'number' ? message.id : -Date.now(),
    type: message.type as LiveNotification['type'],
    message: message.message,
    created_by: typeof message.created_by === 'string' ? message.created_by : 'System',
    timestamp: typeof message.timestamp === 'string' ? message.timestamp : new Date().toISOString(),
  };
}

function showDesktopNotification(notification: LiveNotification) {
  if (!('Notification' in window) || Notification.permission !== 'granted' || !document.hidden) return;
  const desktop = new Notification(notification.type.replace(/_/g, ' ').toUpperCase(), {
    body: notification.message,
    icon: '/icons/icon-192.png',
    tag: String(notification.id),
    silent: true,
    requireInteraction: false,
  });
  desktop.onclick = () => {
    window.focus();
    desktop.close();
  };
}

/** One live connection per page: opened for a user, reopened after drops (partysocket), closed on sign-out. */
class LiveConnection {
  private socket: ReconnectingWebSocket | null = null;
  private identity: string | null = null;
  private handlers: RealtimeHandlers | null = null;

  open(user: Identity, handlers: RealtimeHandlers) {
    this.handlers = handlers;
    const identity = `${user.id}:${user.email}`;
    if (this.identity === identity && this.socket) return;
    this.close();
    this.identity = identity;
    this.connect(user);
  }

  close() {
    this.identity = null;
    const socket = this.socket;
    this.socket = null;
    socket?.close(NORMAL_CLOSURE);
  }

  private connect(user: Identity) {
    let retries = -1;
    let opened = false;
    // The address (and, after it, the protocols) are asked for before every attempt, so a reconnect carries the token refreshed meanwhile;
    // partysocket's own back-off has no jitter, so each attempt waits its share of the jittered delay
    // (thousands of phones must not come back in the same second after a restart).
    const address = async () => {
      retries += 1;
      if (retries > 0) await new Promise((resolve) => setTimeout(resolve, reconnectDelay(retries - 1)));
      const token = storage.token;
      if (!token || this.socket !== socket) {
        if (this.socket === socket) this.close();
        throw new Error('signed out');
      }
      const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
      // No token in the URL: the browser prints a failed socket's URL in the console.
      return `${protocol}//${window.location.host}/ws/notifications/${user.id}/${encodeURIComponent(user.email)}/`;
    };
    // The token rides as an offered subprotocol; the server answers with LIVE_PROTOCOL alone.
    const protocols = () => [LIVE_PROTOCOL, `${LIVE_TOKEN_PROTOCOL_PREFIX}${storage.token ?? ''}`];
    const socket = new ReconnectingWebSocket(address, protocols, {
      // The waiting is done in `address`, jittered; partysocket adds none of its own.
      minReconnectionDelay: 0,
      maxReconnectionDelay: 0,
      connectionTimeout: 10_000,
    });
    this.socket = socket;
    socket.onopen = () => {
      console.info('Notifications connected');
      retries = 0;
      // Nothing pushed while away is replayed: the bell reloads its list.
      if (opened && this.handlers) void this.handlers.queryClient.invalidateQueries({ queryKey: queryRoots.notifications });
      opened = true;
    };
    socket.onmessage = (event) => this.receive(event.data);
    // Every closure but this page's own (`close()`, code 1000) is followed by a new attempt.
    socket.onclose = (event) => console.info('Notifications closed', event.code);
  }

  private receive(data: unknown) {
    const handlers = this.handlers;
    if (!handlers) return;
    let notification: LiveNotification | null;
    try {
      notification = parseMessage(data);
    } catch (error) {
      console.error('Unreadable notification', error);
      return;
    }
    if (!notification) {
      console.error('Unreadable notification', data);
      return;
    }
    const { queryClient } = handlers;
    void queryClient.invalidateQueries({ queryKey: queryRoots.notifications });
    if (notification.type.startsWith('task_')) void invalidateAfterSubtaskChange(queryClient);
    if (handlers.onNotification(notification)) showDesktopNotification(notification);
  }
}

const connection = new LiveConnection();

/**
 * Keeps the live connection in step with the session: open while a user with an id and e-mail
 * and a token are present, closed (code 1000, no reconnect) as soon as either is gone.
 */
export function useRealtime(user: { id?: number; email?: string } | null, handlers: RealtimeHandlers) {
  const handlersRef = useRef(handlers);
  handlersRef.current = handlers;
  const id = user?.id;
  const email = user?.email;

  useEffect(() => {
    if (!id || !email || !storage.token) {
      connection.close();
      return;
    }
    connection.open({ id, email }, handlersRef.current);
    return () => connection.close();
  }, [id, email]);
}
