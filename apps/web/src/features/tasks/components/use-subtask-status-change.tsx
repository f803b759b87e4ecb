import type { Subtask, SubtaskStatus } from '@siteboard/shared';
import { onlineManager, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { ApiError } from '../../../lib/api-client';
import { findSubtaskIn } from '../../../lib/query-keys';
import { discardedWrite, heldBehindRefusal, useWaitingWrites, waitingWritesNow, type WaitingWrite } from '../../../lib/waiting-writes';
import { useUpdateSubtask } from '../api/update-subtask';

/** The message keys of one kind of status change: what shows when it worked, and when it did not. */
export interface StatusChangeTexts {
  success: string;
  failure: string;
}

/** A change kept on this device for the offline queue: its texts, and which waiting write it is. */
interface QueuedChange extends StatusChangeTexts {
  writeId: number | undefined;
}

interface Outcome {
  tone: 'success' | 'error';
  text: string;
  subtaskId: number;
  status: SubtaskStatus;
  queued?: QueuedChange;
}

/**
 * Changes a subtask's status from a list, one row at a time: which row is saving (and to which
 * status), and the outcome as a message above the list. A failure replaces an earlier success:
 * the two never show together (spec §8), and it says the server's reason after the spec's words.
 * Resolves once the lists show the new state: to null when it worked, else to the failure's text
 * (a dialog the change was made from shows it too, over the list's message).
 */
export function useSubtaskStatusChange() {
  const { t } = useTranslation();
  const update = useUpdateSubtask();
  const queryClient = useQueryClient();
  const waiting = useWaitingWrites();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [saving, setSaving] = useState<{ id: number; status: SubtaskStatus } | null>(null);

  // "Task sent for approval!" speaks of a state: once fresh data shows the subtask has moved on
  // (declined, approved, changed by someone else), the message goes. Not while the change waits on
  // this device: a read answered before it reaches the server still shows the old state.
  const stillWaiting = outcome?.queued !== undefined && waiting.some((write) => write.id === outcome.queued?.writeId);
  useEffect(() => {
    if (outcome?.tone !== 'success' || stillWaiting) return;
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'success') return;
      const now = subtaskStatusIn(event.query.state.data, outcome.subtaskId);
      if (now !== undefined && now !== outcome.status) setOutcome(null);
    });
  }, [outcome, stillWaiting, queryClient]);

  const change = async (subtask: Subtask, status: SubtaskStatus, texts: StatusChangeTexts, comment?: string, action?: string): Promise<string | null> => {
    setSaving({ id: subtask.id, status });
    try {
      // Decided on what the screen showed: changed meanwhile (approved, declined, handed to someone else), the server refuses it.
      const seen = { expected_status: subtask.status, expected_assigned_to_id: subtask.assigned_to_id };
      const answer = await update.mutateAsync({ id: subtask.id, status, comment, subject: subtask.name, action, ...seen });
      // Undefined: kept on this device for the offline queue, not sent (yet): the newest waiting change of this status is it.
      const writeId = answer === undefined ? waitingWritesNow().findLast((write) => isChangeOf(write, subtask.id, status))?.id : undefined;
      setOutcome({ tone: 'success', text: t(texts.success), subtaskId: subtask.id, status, queued: answer === undefined ? { ...texts, writeId } : undefined });
      return null;
    } catch (error) {
      const reason = error instanceof ApiError ? ` ${error.detail}` : '';
      const text = `${t(texts.failure)}${reason}`;
      setOutcome({ tone: 'error', text, subtaskId: subtask.id, status });
      return text;
    } finally {
      setSaving(null);
    }
  };

  return { change, saving, message: outcome && <StatusChangeMessage outcome={outcome} waiting={waiting} /> };
}

/**
 * The outcome of a change. One kept on this device says so while it waits (not "Task sent for
 * approval!", which it is not yet), becomes the spec's success once the queue has sent it, and
 * the failure with the server's reason if the server refused it. Discarded from the queue, it was
 * not sent: a refused one keeps its failure, one discarded while it waited says nothing more.
 */
function StatusChangeMessage({ outcome, waiting }: { outcome: Outcome; waiting: readonly WaitingWrite[] }) {
  const { t } = useTranslation();
  const online = useSyncExternalStore(subscribeToConnection, () => onlineManager.isOnline() && navigator.onLine);
  const { queued } = outcome;
  if (!queued) return <Alert tone={outcome.tone}>{outcome.text}</Alert>;
  const waitingWrite = waiting.find((each) => each.id === queued.writeId);
  const write = waitingWrite ?? (queued.writeId === undefined ? undefined : discardedWrite(queued.writeId));
  if (!write) return <Alert tone="success">{t(queued.success)}</Alert>;
  if (write.status === 'failed') return <Alert tone="error">{`${t(queued.failure)}${write.detail ? ` ${write.detail}` : ''}`}</Alert>;
  if (!waitingWrite) return null;
  return <Alert tone="info">{t(queuedChangeText(waiting, waitingWrite, online))}</Alert>;
}

/**
 * Why a change kept on this device has not gone yet: no connection; a change to the same task
 * before it that the server refused (it waits until the person retries or discards that one); or,
 * online, a server that has not answered yet or said to come back later.
 */
function queuedChangeText(waiting: readonly WaitingWrite[], write: WaitingWrite, online: boolean): string {
  if (heldBehindRefusal(waiting, write)) return 'offline.changeBehindRefused';
  return online ? 'offline.changeWaitsForServer' : 'offline.changeQueued';
}

const subscribeToConnection = (changed: () => void) => onlineManager.subscribe(changed);

/** The status of subtask `id` wherever it stands in a query's answer (one subtask, a list, pages, a project's tasks), if there. */
function subtaskStatusIn(data: unknown, id: number): SubtaskStatus | undefined {
  return findSubtaskIn(data, id, (subtask) => typeof subtask.status === 'string')?.status as SubtaskStatus | undefined;
}

/** Whether a write waiting on this device changes subtask `id` to `status` (the offline queue keeps it as its PATCH; a pin moved is another). */
const isChangeOf = (write: WaitingWrite, id: number, status: SubtaskStatus) =>
  write.method === 'PATCH' && write.path === `/api/subtasks/${id}/` && (write.json as { status?: unknown } | undefined)?.status === status;
