import type { Subtask, SubtaskStatus } from '@siteboard/shared';
import { useMemo } from 'react';
import { useWaitingWrites } from '../../../lib/waiting-writes';
import { statusTexts } from '../api/update-subtask';

/**
 * The subtasks a change made on this device is still waiting to reach (its path names the
 * subtask), each with the status that change gives it, if it gives one. A refused change gives
 * none: the server's status stands.
 */
export function useWaitingSubtasks(): ReadonlyMap<number, SubtaskStatus | undefined> {
  const writes = useWaitingWrites();
  return useMemo(() => {
    const waiting = new Map<number, SubtaskStatus | undefined>();
    for (const { path, json, status } of writes) {
      const id = /^\/api\/subtasks\/(\d+)\//.exec(path)?.[1];
      if (!id) continue;
      const next = status === 'waiting' ? (json as { status?: SubtaskStatus } | undefined)?.status : undefined;
      waiting.set(Number(id), next ?? waiting.get(Number(id)));
    }
    return waiting;
  }, [writes]);
}

/**
 * The subtask as it will be once this device's waiting change reaches the server: a read that
 * came back meanwhile has the server's status, without the change (and would offer its buttons
 * again: "Send for Approval" on a task already sent).
 */
export function asItWillBe(subtask: Subtask, waiting: ReadonlyMap<number, SubtaskStatus | undefined>): Subtask {
  const status = waiting.get(subtask.id);
  if (!status || status === subtask.status) return subtask;
  return { ...subtask, status, ...statusTexts(status, { reason: subtask.decline_reason, note: subtask.submission_note }) };
}
