import { useQueryClient } from '@tanstack/react-query';
import type { PinInput, SheetPin, Subtask } from '@siteboard/shared';
import { useEffect, useMemo, useRef } from 'react';
import { useWaitingWrites } from '../../../lib/waiting-writes';
import { movePinInCache } from '../api/get-sheet-pins';

/** A pin change this device has not sent yet: where the pin goes (null: off every sheet), or the server's refusal. */
export interface WaitingPin {
  subtaskId: number;
  subject: string | undefined;
  pin: PinInput | null;
  /** The server refused it (the queue keeps it with this reason until it is retried or discarded). */
  refused?: string;
}

const SUBTASK_PATH = /^\/api\/subtasks\/(\d+)\/$/;

/** The pin changes waiting in the offline queue, the latest per subtask. */
function useWaitingPins(): ReadonlyMap<number, WaitingPin> {
  const writes = useWaitingWrites();
  return useMemo(() => {
    const pins = new Map<number, WaitingPin>();
    for (const write of writes) {
      const id = SUBTASK_PATH.exec(write.path)?.[1];
      const body = write.json as { pin?: PinInput | null } | undefined;
      if (write.method !== 'PATCH' || !id || !body || body.pin === undefined) continue;
      pins.set(Number(id), { subtaskId: Number(id), subject: write.subject, pin: body.pin, refused: write.status === 'failed' ? write.detail : undefined });
    }
    return pins;
  }, [writes]);
}

/** A subtask's pin change that still waits to be sent (not one the server refused), or undefined. */
export function pendingPin(waiting: ReadonlyMap<number, WaitingPin>, subtaskId: number): WaitingPin | undefined {
  const change = waiting.get(subtaskId);
  return change && change.refused === undefined ? change : undefined;
}

/** A pin as the viewer draws it: `waiting` while its move has not reached the server. */
export type ShownPin = SheetPin & { waiting?: boolean };

/**
 * The sheet's pins as they will be once the waiting changes are sent: a waiting move drawn at its
 * new place, a pin waiting to leave the sheet gone, a subtask waiting to be put on it drawn (when
 * `subtasks` knows it). Refused changes are not drawn: the pin stays where the server has it.
 */
function pinsWithWaiting(pins: readonly SheetPin[], sheetId: number, waiting: ReadonlyMap<number, WaitingPin>, subtasks: ReadonlyMap<number, Subtask>): ShownPin[] {
  const pending = (id: number) => pendingPin(waiting, id);
  const shown: ShownPin[] = pins.flatMap((pin) => {
    const change = pending(pin.subtask_id);
    if (!change) return [pin];
    return change.pin?.sheet_id === sheetId ? [{ ...pin, x: change.pin.x, y: change.pin.y, waiting: true }] : [];
  });
  for (const [id, change] of waiting) {
    const subtask = subtasks.get(id);
    if (!pending(id) || change.pin?.sheet_id !== sheetId || !subtask || pins.some((pin) => pin.subtask_id === id)) continue;
    const { status, name, assigned_to, due_date, closed_unfinished_at } = subtask;
    shown.push({ subtask_id: id, x: change.pin.x, y: change.pin.y, status, name, assigned_to, due_date, closed_unfinished_at, may_move: true, waiting: true });
  }
  return shown;
}

/**
 * The pins a sheet shows (see pinsWithWaiting) and the changes of its pins the server refused from
 * the queue. When the queue has sent a move, the cache takes the pin's new place until the reload
 * confirms it, so it does not step back for the moment in between.
 */
export function useShownPins(sheetId: number, pins: readonly SheetPin[] | undefined, subtasks: ReadonlyMap<number, Subtask>) {
  const queryClient = useQueryClient();
  const waiting = useWaitingPins();
  const drawn = useRef<ReadonlyMap<number, WaitingPin>>(new Map());
  useEffect(() => {
    for (const [id, { pin }] of drawn.current) {
      if (waiting.has(id) || pin?.sheet_id !== sheetId) continue;
      movePinInCache(queryClient, sheetId, id, pin);
    }
    drawn.current = new Map([...waiting].filter(([, change]) => change.refused === undefined));
  }, [waiting, sheetId, queryClient]);
  return useMemo(() => {
    const onSheet = new Set((pins ?? []).map((pin) => pin.subtask_id));
    const refused = [...waiting.values()].filter((change) => change.refused !== undefined && (onSheet.has(change.subtaskId) || change.pin?.sheet_id === sheetId));
    return { shown: pinsWithWaiting(pins ?? [], sheetId, waiting, subtasks), refused, waiting };
  }, [pins, sheetId, waiting, subtasks]);
}
