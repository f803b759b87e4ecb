import { z } from 'zod';
import { pageParams, requiredText } from './common';
import type { ProjectStatus } from './project-status';
import type { Role } from './roles';
import { isOverdue } from './subtask-values';

/** A drawing's sheet: one page of an uploaded PDF, or one image (issue 43). */
export const SHEET_STATUSES = ['processing', 'ready', 'failed'] as const;
export const sheetStatusSchema = z.enum(SHEET_STATUSES);
export type SheetStatus = z.infer<typeof sheetStatusSchema>;

/** The largest uploads: a PDF plan set, or one scanned or photographed image. */
export const SHEET_PDF_MAX_BYTES = 200 * 1024 * 1024;
export const SHEET_IMAGE_MAX_BYTES = 50 * 1024 * 1024;
/** More pages than a plan set has: a PDF with more is refused before anything is made. */
export const SHEET_MAX_PAGES = 200;
/** The longest side a sheet is rendered at, before the pixel budget lowers it. */
export const SHEET_MAX_SIDE = 12_000;

export const SHEET_NOT_FOUND = 'Sheet not found.';
export const NOT_SHEET_KEEPER = "Only the project's manager and admins can upload, rename, version and delete its drawings.";
export const COMPLETED_PROJECT_SHEETS_READ_ONLY = "A completed project's drawings are read-only.";
export const NO_WORK_FOR_SHEETS = 'Only people with work in this project can see its drawings.';
export const SHEET_FILE_MISSING = 'Attach the drawing as multipart/form-data in a field named "file".';
export const SHEET_TOO_LARGE = 'The drawing is too large: a PDF may be at most 200 MB, an image at most 50 MB.';
export const ONE_DRAWING_PER_REQUEST = 'Send one drawing per request.';
export const SHEET_NOT_A_DRAWING = 'The file is not a drawing: upload a PDF, JPEG, PNG or WebP file.';
export const SHEET_PDF_ENCRYPTED = 'The PDF is protected by a password: upload it without the password.';
export const SHEET_PDF_DAMAGED = 'The PDF is damaged and cannot be read.';
export const SHEET_PDF_NO_PAGES = 'The PDF has no pages.';
export const SHEET_TOO_MANY_PAGES = 'The PDF has {pages} pages: upload at most {max} pages at once.';
export const SHEET_PAGE_TOO_LARGE = 'The page is larger than 5 × 5 m: it is not a drawing SiteBoard can show.';
export const SHEET_IMAGE_TOO_LARGE = 'The image is larger than {max} megapixels.';
export const SHEET_IMAGE_DAMAGED = 'The image is damaged and cannot be read.';
export const SHEET_RENDER_FAILED = 'The drawing could not be rendered: upload it again.';
export const SHEET_NOT_LATEST = 'Pin the subtask on the latest version of the sheet.';
export const PIN_SHEET_OF_ANOTHER_PROJECT = "The sheet is not one of the subtask's project.";
export const PIN_NEEDS_APPROVER = "Only the project's manager, or a manager who assigns the subtask, can pin it on a drawing.";

/** The most sheets one page of a project's list holds: as many as one upload can add. */
export const SHEETS_MAX_LIMIT = 200;
export const sheetListQuery = z.object({ ...pageParams(SHEETS_MAX_LIMIT) });

export const sheetSchema = z.object({
  id: z.number(),
  project_id: z.number(),
  name: z.string(),
  /** The page of the uploaded PDF (1 for an image). */
  page_number: z.number(),
  /** 1 for the first upload; each new version of the sheet is a new sheet with the next number. */
  version: z.number(),
  status: sheetStatusSchema,
  /** Why a failed sheet could not be made, in the reader's language (null otherwise). */
  failure: z.string().nullable(),
  /** The rendered size in pixels, once ready. */
  width: z.number().nullable(),
  height: z.number().nullable(),
  created_at: z.string(),
});
export type Sheet = z.infer<typeof sheetSchema>;

/** One sheet with where its images are: tiles of a Deep Zoom pyramid (level 0 is 1 × 1 px) and a preview. */
export const sheetDetailSchema = sheetSchema.extend({
  preview_url: z.string().nullable(),
  tile_size: z.number(),
  max_level: z.number().nullable(),
  /** `{level}`, `{col}` and `{row}` to fill in; null until the sheet is ready. */
  tile_url_template: z.string().nullable(),
  /** Every version of the sheet, oldest first, so an old one can still be opened. */
  versions: z.array(z.object({ id: z.number(), version: z.number(), status: sheetStatusSchema, created_at: z.string() })),
});
export type SheetDetail = z.infer<typeof sheetDetailSchema>;

export const updateSheetInput = z.object({
  name: requiredText('Name is required.').pipe(z.string().max(200, 'Name must be at most 200 characters.')),
});
export type UpdateSheetInput = z.input<typeof updateSheetInput>;

const relative = (label: string) =>
  z.number({ error: `${label} must be a number from 0 to 1.` }).min(0, `${label} must be a number from 0 to 1.`).max(1, `${label} must be a number from 0 to 1.`);

/** Where a subtask is on a sheet: x and y relative to the sheet's width and height. */
export const subtaskPinSchema = z.object({ sheet_id: z.number(), x: z.number(), y: z.number() });
export type SubtaskPin = z.infer<typeof subtaskPinSchema>;

export const pinInput = z.object({ sheet_id: z.number({ error: 'Choose a sheet.' }).int('Choose a sheet.').positive('Choose a sheet.').max(2147483647, 'Choose a sheet.'), x: relative('x'), y: relative('y') });
export type PinInput = z.input<typeof pinInput>;

const person = z.object({ id: z.number(), email: z.string(), full_name: z.string().nullable() });

export const sheetPinSchema = z.object({
  subtask_id: z.number(),
  x: z.number(),
  y: z.number(),
  status: z.enum(['ongoing', 'pending_approval', 'completed']),
  name: z.string(),
  assigned_to: person.nullable(),
  due_date: z.string().nullable(),
  /** When completing its project closed this work unfinished (`status` stays the status it kept), as the subtask's answer says; else null. */
  closed_unfinished_at: z.string().nullable(),
  /** The caller may move this pin (canMoveSubtaskPin). */
  may_move: z.boolean(),
});
export type SheetPin = z.infer<typeof sheetPinSchema>;

/**
 * How a pin is coloured: its status, or overdue when not completed and due before today. Work a
 * completed project closed unfinished is no open work (decision record 061): neither ongoing,
 * pending nor overdue, a colour of its own.
 */
export type PinColour = 'ongoing' | 'pending_approval' | 'completed' | 'overdue' | 'closed_unfinished';
export function pinColour(pin: Pick<SheetPin, 'status' | 'due_date' | 'closed_unfinished_at'>, today: string): PinColour {
  if (pin.closed_unfinished_at !== null) return 'closed_unfinished';
  if (isOverdue(pin, today)) return 'overdue';
  return pin.status;
}

/** What the sheet rules need to know about the project and the caller. */
export interface SheetParties {
  role: Role;
  userId: number;
  projectManagerId: number | null;
  projectStatus: ProjectStatus;
  /** The caller has a subtask assigned in the project. */
  hasWork: boolean;
}

export type SheetDecision = { ok: true } | { ok: false; error: 'forbidden' | 'invalid'; message: string };

/** Reading a project's drawings: admins, its manager, and whoever has work in it. */
export function decideSheetReading(parties: SheetParties): SheetDecision {
  if (parties.role === 'admin' || parties.projectManagerId === parties.userId || parties.hasWork) return { ok: true };
  return { ok: false, error: 'forbidden', message: NO_WORK_FOR_SHEETS };
}

/** Uploading, renaming, versioning and deleting: the project's manager and admins, while the project is not completed. */
export function decideSheetKeeping(parties: SheetParties): SheetDecision {
  const keeper = parties.role === 'admin' || (parties.role === 'manager' && parties.projectManagerId === parties.userId);
  if (!keeper) return { ok: false, error: 'forbidden', message: NOT_SHEET_KEEPER };
  if (parties.projectStatus === 'completed') return { ok: false, error: 'invalid', message: COMPLETED_PROJECT_SHEETS_READ_ONLY };
  return { ok: true };
}

export const canKeepSheets = (parties: SheetParties) => decideSheetKeeping(parties).ok;
