import { z } from 'zod';
import { idListParam, MAX_ID, text, wholeNumberParam } from './common';
import { TOTAL_COUNT_HEADER } from './lists';
import { ACTIVITY_PAGE_SIZE } from './list-sizes';
import { COMMENT_MAX } from './subtask-values';
import { subtaskStatusSchema } from './tasks';

export const commentText = (label: string) =>
  text({ error: `${label} is required.` }).trim().min(1, `${label} is required.`).max(COMMENT_MAX, `${label} must be at most ${COMMENT_MAX} characters.`);

/** `closed_unfinished`: completing the project closed the work unfinished; `reopened`: reopening the project reopened it (both carry the status it kept as `from` and `to`). */
export const ACTIVITY_TYPES = ['created', 'edited', 'status_changed', 'comment', 'attachment', 'closed_unfinished', 'reopened'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

const person = z.object({ id: z.number(), email: z.string(), full_name: z.string().nullable() });

/** A photo on a subtask: its facts and where to read it (with the bearer token). */
export const attachmentSchema = z.object({
  id: z.number(),
  content_type: z.string(),
  size: z.number(),
  width: z.number(),
  height: z.number(),
  url: z.string(),
  thumbnail_url: z.string(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

/** A changed field of an edit: its value before and after. */
const fieldChange = z.object({ from: z.unknown(), to: z.unknown() });

/**
 * An assignee an edit names: `id` and `email` as the edit recorded them, `full_name` the person's
 * name as it is now (also after they left; null when they have none): what the timeline shows,
 * the e-mail where there is no name.
 */
const changedAssignee = person.nullable();

/** An edit's changed fields; a change of assignee names both people. */
const fieldChanges = z
  .object({
    assigned_to: z
      .object({ from: changedAssignee, to: changedAssignee })
      .optional()
      .meta({ description: 'The assignees before and after: id and e-mail as recorded, full_name as the person is called now (null without one)' }),
  })
  .catchall(fieldChange);

/**
 * One entry of a subtask's history. Status changes carry `from`, `to` and the `comment` given
 * with them (a decline's reason); comments carry `text`; photos carry `attachment`; edits carry
 * `changes`.
 */
export const activityEntrySchema = z.object({
  id: z.number(),
  type: z.enum(ACTIVITY_TYPES),
  actor: person.nullable(),
  created_at: z.string().meta({ description: 'When it reached the server' }),
  done_at: z.string().meta({ description: 'When it was done: the time the device said it was made when it was sent later (X-Done-At), else created_at' }),
  from: subtaskStatusSchema.optional(),
  to: subtaskStatusSchema.optional(),
  comment: z.string().nullable().optional(),
  text: z.string().optional(),
  attachment: attachmentSchema.optional(),
  changes: fieldChanges.optional(),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

/** A photo with the subtask it is on: the photos of a page of subtasks, in one request. */
export const subtaskPhotoSchema = attachmentSchema.extend({ subtask_id: z.number() });
export type SubtaskPhoto = z.infer<typeof subtaskPhotoSchema>;

export const PHOTO_LIST_MAX_SUBTASKS = 100;
/**
 * A page of a subtask's history: the latest `limit` entries (older than the entry `before`, when
 * given), oldest first, with X-Total-Count the number of entries the history has. A long-running
 * subtask's hundreds of comments come a page at a time, never in one answer.
 */
export const activityQuery = z.object({
  before: wholeNumberParam('before', 1, MAX_ID).optional().meta({ description: 'Only entries older than this entry id (the first entry of the page shown): the page before it' }),
  limit: wholeNumberParam('limit', 1, ACTIVITY_PAGE_SIZE)
    .default(ACTIVITY_PAGE_SIZE)
    .meta({ description: `At most this many entries, the latest (1–${ACTIVITY_PAGE_SIZE}, ${ACTIVITY_PAGE_SIZE} when not given); the answer carries ${TOTAL_COUNT_HEADER}, the number of entries of the whole history` }),
});

export const photoListQuery = z.object({
  subtask_ids: idListParam('subtask_ids', 'subtask ids', PHOTO_LIST_MAX_SUBTASKS, `At most ${PHOTO_LIST_MAX_SUBTASKS} subtasks at once.`),
});

export const createCommentInput = z.object({ text: commentText('Comment') });

/** The web's Decline dialog: a reason is required there (the API takes a decline without one). */
export const declineReasonInput = z.object({ text: commentText('Reason') });
export type CreateCommentInput = z.input<typeof createCommentInput>;

/** What a photo upload may be: the bytes decide, never the name or the header. */
export const ATTACHMENT_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic'] as const;
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
export const NOT_A_PHOTO = 'The file is not a JPEG, PNG, WebP or HEIC image.';
export const PHOTO_TOO_LARGE = `The photo is larger than ${ATTACHMENT_MAX_BYTES / 1024 / 1024} MB.`;

/** The kinds a device may name a photo it offers: the ones kept, as browsers and phones spell them. */
const PHOTO_TYPES = new Set(['image/jpeg', 'image/jpg', 'image/pjpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence']);
const PHOTO_NAME = /\.(jpe?g|png|webp|heic|heif)$/i;

/**
 * Why a file picked as a photo will be refused, judged by what the device says of it (its type,
 * else its name, and its size), when it is picked rather than after a send; undefined when it may
 * go. The server judges the bytes as well (a text file named .png is refused there).
 */
export function photoPickRefusal(file: { name: string; type: string; size: number }): string | undefined {
  // No type and a name without an extension (some Android galleries: "1000012345"): only the bytes can tell, on the server.
  const unnamed = !/\.[^./\\]+$/.test(file.name);
  const named = file.type === '' || file.type === 'application/octet-stream' ? unnamed || PHOTO_NAME.test(file.name) : PHOTO_TYPES.has(file.type.toLowerCase());
  if (!named) return NOT_A_PHOTO;
  if (file.size > ATTACHMENT_MAX_BYTES) return PHOTO_TOO_LARGE;
  return undefined;
}
/**
 * Larger images are refused before they are decoded (a decompression bomb claims billions): 50
 * million pixels is more than a phone camera makes (48 and 50 MP modes included).
 */
export const ATTACHMENT_MAX_PIXELS = 50_000_000;
/** A photo is kept at most this long on its longer side: a phone's full-screen zoom, and a fraction of a camera's bytes. */
export const PHOTO_MAX_PX = 2560;
export const THUMBNAIL_MAX_PX = 400;
