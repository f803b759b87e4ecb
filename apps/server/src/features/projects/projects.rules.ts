import { END_BEFORE_START } from '@siteboard/shared';

export const MANAGER_CONFLICT = 'Send the manager as manager or as manager_id, not two different values.';

/**
 * The spec's client sends the manager as `manager`, the API documents `manager_id`. Answers the
 * chosen id and the field it came from (where a refusal is reported), or a conflict.
 */
export function resolveManagerField(input: { manager?: number; manager_id?: number }):
  | { ok: true; managerId?: number; field: 'manager' | 'manager_id' }
  | { ok: false; field: 'manager_id'; message: string } {
  if (input.manager !== undefined && input.manager_id !== undefined && input.manager !== input.manager_id) {
    return { ok: false, field: 'manager_id', message: MANAGER_CONFLICT };
  }
  if (input.manager_id !== undefined) return { ok: true, managerId: input.manager_id, field: 'manager_id' };
  return { ok: true, managerId: input.manager, field: 'manager' };
}

/** Dates are `YYYY-MM-DD`, so text order is calendar order. Checked on the merged row, not only on what a PATCH sent. */
export function endDateError(startDate: string, endDate: string): string | undefined {
  return endDate < startDate ? END_BEFORE_START : undefined;
}

/** Completing a project with unfinished work asks first (decision record 061): the 409's detail. */
export function openWorkConflict(open: number): string {
  return open === 1
    ? '1 subtask is unfinished. Completing the project approves nothing: it closes that subtask as unfinished. Confirm to complete the project anyway.'
    : `${open} subtasks are unfinished. Completing the project approves nothing: it closes them as unfinished. Confirm to complete the project anyway.`;
}
