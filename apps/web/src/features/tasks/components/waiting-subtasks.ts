import type { Subtask, SubtaskStatus } from '@siteboard/shared';
import { useMemo } from 'react';
import type { QueuedWriteKind } from '../../../lib/api-client';
import { useWaitingWrites } from '../../../lib/waiting-writes';
import { statusTexts } from '../api/update-subtask';

/** What this device still has to send about one subtask. */
export interface WaitingOnSubtask {
  /** A change of its status waits (or was refused): its status action is done, not to be offered again. */
  statusChange: boolean;
  /** The status that change gives it, while it waits; a refused change gives none: the server's stands. */
  status?: SubtaskStatus;
  /** The other writes that wait (a comment, photos, a pin moved), by kind, with how many of each. */
  others: ReadonlyMap<QueuedWriteKind, number>;
}

/**
 * The subtasks a change made on this device is still waiting to reach (its path names the
 * subtask). Only a status change stands for the status action: a comment or a photo added
 * meanwhile leaves "Send for Approval" to be done, and is told apart.
 */
export function useWaitingSubtasks(): ReadonlyMap<number, WaitingOnSubtask> {
  const writes = useWaitingWrites();
  return useMemo(() => {
    const waiting = new Map<number, { statusChange: boolean; status?: SubtaskStatus; others: Map<QueuedWriteKind, number> }>();
    for (const { kind, path, json, status } of writes) {
      const id = /^\/api\/subtasks\/(\d+)\//.exec(path)?.[1];
      if (!id) continue;
      const entry = waiting.get(Number(id)) ?? { statusChange: false, others: new Map<QueuedWriteKind, number>() };
      waiting.set(Number(id), entry);
      const next = (json as { status?: SubtaskStatus } | undefined)?.status;
      if (next) {
        entry.statusChange = true;
        if (status === 'waiting') entry.status = next;
      } else {
        entry.others.set(kind, (entry.others.get(kind) ?? 0) + 1);
      }
    }
    return waiting;
  }, [writes]);
}

/**
 * The subtask as it will be once this device's waiting change reaches the server: a read that
 * came back meanwhile has the server's status, without the change (and would offer its buttons
 * again: "Send for Approval" on a task already sent).
 */
export function asItWillBe(subtask: Subtask, waiting: ReadonlyMap<number, WaitingOnSubtask>): Subtask {
  const status = waiting.get(subtask.id)?.status;
  if (!status || status === subtask.status) return subtask;
  return { ...subtask, status, ...statusTexts(status, { reason: subtask.decline_reason, note: subtask.submission_note }) };
}
