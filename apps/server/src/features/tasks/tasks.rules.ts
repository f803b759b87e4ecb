import type { StatusChange } from '@siteboard/shared';

/** The timestamp columns a status change sets; a key left out stays as it is. */
export interface StatusTimestamps {
  submittedAt?: Date;
  completedAt?: Date | null;
}

/** submitted_at records the latest submission; completed_at is set on completion and cleared when a task leaves completed. */
export function statusTimestamps(change: StatusChange | undefined, now: Date): StatusTimestamps {
  const timestamps: StatusTimestamps = {};
  if (!change) return timestamps;
  if (change.to === 'pending_approval') timestamps.submittedAt = now;
  if (change.to === 'completed') timestamps.completedAt = now;
  if (change.from === 'completed') timestamps.completedAt = null;
  return timestamps;
}

/** A major task is due when its last subtask is (spec §3). `YYYY-MM-DD` strings sort as dates. */
export function latestDueDate(dueDates: readonly (string | null)[]): string | null {
  let latest: string | null = null;
  for (const date of dueDates) if (date !== null && (latest === null || date > latest)) latest = date;
  return latest;
}
