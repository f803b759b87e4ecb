import type { LiveNotification } from '@siteboard/shared';
import { useSyncExternalStore } from 'react';
import { rememberId, SEEN_IDS_CAP } from './notifications.rules';

/** The pushes of this page's session, newest last, for the bell until the API copies arrive. */
let items: LiveNotification[] = [];
let seen: number[] = [];
const listeners = new Set<() => void>();

/** Adds a push; false when its id was seen already, so nobody reacts to it twice. */
export function addLiveNotification(notification: LiveNotification): boolean {
  const remembered = rememberId(seen, notification.id);
  if (!remembered.isNew) return false;
  seen = remembered.seen;
  items = [...items, notification].slice(-SEEN_IDS_CAP);
  for (const listener of listeners) listener();
  return true;
}

export function clearLiveNotifications() {
  items = [];
  seen = [];
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const useLiveNotifications = () => useSyncExternalStore(subscribe, () => items);
