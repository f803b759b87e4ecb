import { z } from 'zod';
import { MAX_ID, positiveId, text, wholeNumber } from './common';
import { LIVE_TOKEN_PROTOCOL_PREFIX } from './live';

/** Spec §3: each type has its own icon and colour on the web; any other type gets a default. */
export const NOTIFICATION_TYPES = [
  'task_submission',
  'task_approved',
  'task_declined',
  'task_assignment',
  'deadline_reminder',
  'approval_delay',
  'task_comment',
  'task_overdue',
  'daily_log_reminder',
  'task_unassigned',
] as const;
export const notificationTypeSchema = z.enum(NOTIFICATION_TYPES);
export type NotificationType = z.infer<typeof notificationTypeSchema>;

/** The author of a notification no person caused (the sweeps). */
export const SYSTEM_AUTHOR = 'System';

export const NOTIFICATIONS_DEFAULT_LIMIT = 200;
export const NOTIFICATIONS_MAX_LIMIT = 500;

/** One notification as one recipient sees it: `id` is the recipient record, the id mark-read takes. */
export const notificationRecordSchema = z.object({
  id: z.number(),
  is_read: z.boolean(),
  created_at: z.string(),
  /** The subtask it is about, to open it; null when there is none (or it was deleted). */
  subtask_id: z.number().nullable(),
  notification: z.object({
    type: notificationTypeSchema,
    message: z.string(),
    created_by: z.string(),
    /** The current full name of the person who acted (`created_by` is their e-mail); null for the System or a person with no name. */
    created_by_name: z.string().nullable().optional(),
    created_at: z.string(),
  }),
});
export type NotificationRecord = z.infer<typeof notificationRecordSchema>;

export const notificationListQuery = z.object({
  /** Sent by the spec's client; it must be the caller's own e-mail (any case). */
  email: text().max(254).optional().meta({ description: "The caller's own e-mail; a colleague's is refused with 403, any other with 404" }),
  limit: wholeNumber('limit must be a whole number.', {
    min: 1,
    max: NOTIFICATIONS_MAX_LIMIT,
    tooSmall: 'limit must be at least 1.',
    tooLarge: `limit must be at most ${NOTIFICATIONS_MAX_LIMIT}.`,
  })
    .default(NOTIFICATIONS_DEFAULT_LIMIT)
    .meta({ description: `How many of the newest to answer (default ${NOTIFICATIONS_DEFAULT_LIMIT})` }),
});
export type NotificationListQuery = z.input<typeof notificationListQuery>;

export const MARK_READ_ONLY_IDS = 'Send the ids to mark read, or nothing to mark them all read.';

/**
 * No body, `{}`, or `{ids}`: without ids every unread notification of the caller is marked read;
 * with `up_to_id` (beside the spec's fields) every unread one up to that id, the newest the reader
 * saw, so one that arrived meanwhile stays unread. Any other field is refused: a misspelt `ids`
 * would otherwise mark them all.
 */
export const markReadInput = z
  .strictObject(
    {
      ids: z
        .array(z.number({ error: 'ids must be a list of notification ids.' }).int().positive().max(MAX_ID), { error: 'ids must be a list of notification ids.' })
        .max(1000, 'At most 1000 ids at once.')
        .optional(),
      up_to_id: positiveId('up_to_id must be a notification id.').optional(),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? MARK_READ_ONLY_IDS : undefined) },
  )
  .nullish();
export type MarkReadInput = z.input<typeof markReadInput>;

export const markReadResponse = z.object({ updated: z.number().int() });
export type MarkReadResponse = z.infer<typeof markReadResponse>;

/** What the WebSocket pushes for each new notification; `id` is the same recipient record id the list answers. */
export const liveNotificationSchema = z.object({
  id: z.number(),
  type: notificationTypeSchema,
  subtask_id: z.number().nullable().optional(),
  message: z.string(),
  created_by: z.string(),
  created_by_name: z.string().nullable().optional(),
  timestamp: z.string(),
});
export type LiveNotification = z.infer<typeof liveNotificationSchema>;

/** `/ws/notifications/{userId}/{email}/?token=ACCESS`. */
export const liveNotificationParams = z.object({
  userId: positiveId('The user id in the path must be a whole number.'),
  email: text().min(1).max(254),
});
export const liveNotificationQuery = z.object({ token: text().min(1).max(4096).optional() });

/** The access token offered in a `Sec-WebSocket-Protocol` header, if any. */
export function tokenFromLiveProtocols(header: string | undefined): string | undefined {
  const offered = (header ?? '').split(',').map((protocol) => protocol.trim());
  const token = offered.find((protocol) => protocol.startsWith(LIVE_TOKEN_PROTOCOL_PREFIX))?.slice(LIVE_TOKEN_PROTOCOL_PREFIX.length);
  return token || undefined;
}

/** Close codes of the live connection beyond the standard ones. */
/** `missedSome` (1012, "service restart"): the instance may have missed notifications; reconnect and reload them. */
export const LIVE_CLOSE_CODES = { unauthorized: 4401, forbidden: 4403, goingAway: 1001, missedSome: 1012 } as const;
