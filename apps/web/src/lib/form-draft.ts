import { useCallback, useEffect, useRef, useState } from 'react';
import type { DefaultValues, FieldValues, UseFormReturn } from 'react-hook-form';
import { storage } from './storage';

/** Where a form's draft is kept: per signed-in user, so another person on this device never sees it. */
function draftKey(form: string): string {
  return `draft:${storage.readUser()?.id ?? 'anonymous'}:${form}`;
}

function readDraft<T>(form: string): T | undefined {
  const key = draftKey(form);
  const raw = localStorage.getItem(key);
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as T;
  } catch {
    localStorage.removeItem(key);
    return undefined;
  }
}

/**
 * A form's input kept on this device until it is sent or discarded (issue 42: a major task with
 * five subtasks typed on a phone survives a reload and a walk through the sidebar). `useForm` takes
 * `initialValues` (the draft, else `empty`); `useDraftOf(draft, form)` then writes every change at
 * once, and a form back at `empty` keeps no draft. `discard()` (also after a successful send)
 * forgets it and empties the form. `restored`: the form opened from a draft; `dirty`: it holds input.
 */
export function useFormDraft<T extends FieldValues>(form: string, empty: T) {
  const [initial] = useState(() => readDraft<T>(form));
  const [restored, setRestored] = useState(initial !== undefined);
  const [dirty, setDirty] = useState(initial !== undefined);
  const reset = useRef<((values: DefaultValues<T>) => void) | null>(null);
  const emptyText = useRef(JSON.stringify(empty));

  const write = useCallback(
    (values: unknown) => {
      const text = JSON.stringify(values);
      const hasInput = text !== emptyText.current;
      if (hasInput) localStorage.setItem(draftKey(form), text);
      else localStorage.removeItem(draftKey(form));
      setDirty(hasInput);
    },
    [form],
  );

  const discard = useCallback(() => {
    localStorage.removeItem(draftKey(form));
    setDirty(false);
    setRestored(false);
    reset.current?.(JSON.parse(emptyText.current) as DefaultValues<T>);
  }, [form]);

  return { initialValues: (initial ?? empty) as DefaultValues<T>, restored, dirty, discard, write, reset };
}

/** Keeps `form`'s draft up to date for as long as the component is mounted. */
export function useDraftOf<T extends FieldValues, Output>(draft: ReturnType<typeof useFormDraft<NoInfer<T>>>, form: UseFormReturn<T, unknown, Output>) {
  const { write, reset } = draft;
  useEffect(() => {
    reset.current = (values) => form.reset(values);
    const subscription = form.watch((values) => write(values));
    return () => subscription.unsubscribe();
  }, [form, write, reset]);
}
