import type { LiveNotification } from '@siteboard/shared';
import type { QueryClient } from '@tanstack/react-query';
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

/** One live connection per page: opened for a user, reopened after drops, closed on sign-out. */
class LiveConnection {
  private socket: WebSocket | null = null;
  private identity: string | null = null;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private handlers: RealtimeHandlers | null = null;

  open(user: Identity, handlers: RealtimeHandlers) {
    this.handlers = handlers;
    const identity = `${user.id}:${user.email}`;
    if (this.identity === identity && this.socket) return;
    this.close();
    this.identity = identity;
    this.connect(user, false);
  }

  close() {
    clearTimeout(this.retryTimer);
    this.identity = null;
    const socket = this.socket;
    this.socket = null;
    socket?.close(NORMAL_CLOSURE);
  }

  private connect(user: Identity, isReconnect: boolean) {
    const token = storage.token;
    if (!token) {
      this.close();
      return;
    }
    const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(`${protocol}//${window.location.host}/ws/notifications/${user.id}/${encodeURIComponent(user.email)}/?token=${encodeURIComponent(token)}`);
    this.socket = socket;
    socket.onopen = () => {
      console.info('Notifications connected');
      this.attempt = 0;
      // Nothing pushed while away is replayed: the bell reloads its list.
      if (isReconnect && this.handlers) void this.handlers.queryClient.invalidateQueries({ queryKey: queryRoots.notifications });
    };
    socket.onmessage = (event) => this.receive(event.data);
    socket.onclose = (event) => {
      console.info('Notifications closed', event.code);
      if (this.socket !== socket) return;
      this.socket = null;
      if (event.code === NORMAL_CLOSURE) return;
      this.retryTimer = setTimeout(() => this.connect(user, true), reconnectDelay(this.attempt));
      this.attempt += 1;
    };
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
