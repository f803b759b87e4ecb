import type { Tx } from '../platform';

/** Who did it: the person a notification names and never notifies about their own act. */
export interface EventActor {
  id: number;
  companyId: number;
  email: string;
}

/**
 * What the domain announces, each emitted inside the transaction that made it true. Subscribers
 * write with that transaction, so their rows commit or roll back with the change.
 */
export interface AppEvents {
  /** Subtasks were created for, or moved to, a (new) assignee. */
  'subtasks.assigned': { actor: EventActor; subtaskIds: number[] };
  /** ongoing → pending_approval, with the note sent along. */
  'subtask.submitted': { actor: EventActor; subtaskId: number; comment?: string };
  /** pending_approval → completed. */
  'subtask.approved': { actor: EventActor; subtaskId: number; comment?: string };
  /** pending_approval → ongoing, with the reason given. */
  'subtask.declined': { actor: EventActor; subtaskId: number; comment?: string };
  /** Someone commented on a subtask (alone, or said with an edit). */
  'subtask.commented': { actor: EventActor; subtaskId: number; text: string };
  /** A subtask was taken from its assignee and given to someone else. */
  'subtask.unassigned': { actor: EventActor; subtaskId: number; formerAssigneeId: number };
}

export type EventHandler<K extends keyof AppEvents> = (tx: Tx, payload: AppEvents[K]) => Promise<void>;

export function createEventBus() {
  const handlers = new Map<keyof AppEvents, Set<EventHandler<never>>>();
  return {
    /**
     * Subscribing the same function twice is one subscription: every app built in a process
     * (tests build several) registers the same stateless handlers.
     */
    on<K extends keyof AppEvents>(name: K, handler: EventHandler<K>): void {
      const set = handlers.get(name) ?? new Set();
      set.add(handler as EventHandler<never>);
      handlers.set(name, set);
    },
    /** Runs every handler in turn, in the caller's transaction; a failing handler fails the change. */
    async emit<K extends keyof AppEvents>(tx: Tx, name: K, payload: AppEvents[K]): Promise<void> {
      for (const handler of handlers.get(name) ?? []) await (handler as EventHandler<K>)(tx, payload);
    },
  };
}

/**
 * The process's event bus. Handlers receive the transaction rather than app state, which is why
 * one bus serves every app instance in the process (and why handlers must stay stateless).
 */
export const events = createEventBus();
