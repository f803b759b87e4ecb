import type { LiveNotification, NotificationRecord } from '@siteboard/shared';

/** Spec §9: how many live ids are remembered against duplicates; the oldest goes first. */
export const SEEN_IDS_CAP = 200;

/** One row of the bell, whichever way it arrived. */
export interface BellItem {
  key: string;
  /** The recipient record id: what mark-read takes and what live pushes carry. */
  id: number | undefined;
  type: string;
  message: string;
  /** Who acted, by their current name (the e-mail where they have none), or "System". */
  createdBy: string;
  createdAt: string;
  isRead: boolean;
  source: 'api' | 'live';
  /** The subtask it is about: clicking the item opens it. */
  subtaskId: number | null;
}

export function normaliseMessage(message: string): string {
  return message.trim().toLowerCase().replace(/\s+/g, ' ');
}

/** Spec §4: one notification is its type plus its normalised message, however it arrived. */
export function mergeKey(type: string, message: string): string {
  return `${type}\u0000${normaliseMessage(message)}`;
}

export function fromRecord(record: NotificationRecord): BellItem {
  const { type, message, created_by, created_by_name, created_at } = record.notification;
  return { key: mergeKey(type, message), id: record.id, type, message, createdBy: created_by_name ?? created_by, createdAt: record.created_at || created_at, isRead: record.is_read, source: 'api', subtaskId: record.subtask_id ?? null };
}

export function fromLive(live: Pick<LiveNotification, 'type' | 'message' | 'created_by' | 'created_by_name' | 'timestamp'> & { id?: number; subtask_id?: number | null }): BellItem {
  return {
    key: mergeKey(live.type, live.message),
    id: live.id,
    type: live.type,
    message: live.message,
    createdBy: live.created_by_name ?? live.created_by,
    createdAt: live.timestamp,
    isRead: false,
    source: 'live',
    subtaskId: live.subtask_id ?? null,
  };
}

const timeOf = (item: BellItem) => {
  const time = Date.parse(item.createdAt);
  return Number.isNaN(time) ? 0 : time;
};

function wins(candidate: BellItem, current: BellItem): boolean {
  if (candidate.source !== current.source) return candidate.source === 'api';
  return timeOf(candidate) > timeOf(current);
}

/** Spec §4: one item per merge key, the API copy over a live one, else the newer; newest first. */
export function mergeNotifications(records: readonly NotificationRecord[], live: readonly LiveNotification[]): BellItem[] {
  const byKey = new Map<string, BellItem>();
  for (const item of [...records.map(fromRecord), ...live.map(fromLive)]) {
    const current = byKey.get(item.key);
    if (!current || wins(item, current)) byKey.set(item.key, item);
  }
  return [...byKey.values()].sort((a, b) => timeOf(b) - timeOf(a));
}

/**
 * Spec §4: unread API items, plus live items that arrived after the bell was last opened and
 * whose API copy has not been fetched yet (that copy is already counted, or already read).
 */
export function badgeCount(records: readonly NotificationRecord[], live: readonly LiveNotification[], lastOpenAt: string | null): number {
  const apiKeys = new Set(records.map((record) => mergeKey(record.notification.type, record.notification.message)));
  const since = lastOpenAt ? Date.parse(lastOpenAt) : Number.NaN;
  const freshLiveKeys = new Set(
    live
      .filter((item) => Number.isNaN(since) || Date.parse(item.timestamp) > since)
      .map((item) => mergeKey(item.type, item.message))
      .filter((key) => !apiKeys.has(key)),
  );
  return records.filter((record) => !record.is_read).length + freshLiveKeys.size;
}

/**
 * Remembers a pushed id; `isNew` is false when it was seen already. Keeps at most `cap` ids,
 * dropping the oldest, so a long session does not grow without bound.
 */
export function rememberId(seen: readonly number[], id: number, cap = SEEN_IDS_CAP): { seen: number[]; isNew: boolean } {
  if (seen.includes(id)) return { seen: [...seen], isNew: false };
  const next = [...seen, id];
  return { seen: next.length > cap ? next.slice(next.length - cap) : next, isNew: true };
}
