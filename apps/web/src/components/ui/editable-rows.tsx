import { useState, type FormEvent, type ReactNode } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError, applyFieldErrors } from '../../lib/api-client';
import { useFailureMessage, type FailureTexts } from '../../lib/failure-message';
import { Button } from './button';
import { ConfirmDialog } from './confirm-dialog';
import { RowActionButton } from './row-action-button';
import { actionsCellClass } from './table';
import { SUCCESS_SHOWN_MS, Toast } from './toast';

/**
 * The last cell of an editable table row: Edit, and Delete after a confirmation. `subject` names
 * the row for screen readers ("Edit ana@example.com"); `focusEdit` puts focus back on Edit when
 * the row leaves edit mode, so keyboard users stay where they were.
 */
export function ViewActions({
  subject,
  busy,
  focusEdit,
  onEdit,
  onDelete,
  deleteTitle,
  deleteDescription,
}: {
  subject: string;
  busy: boolean;
  focusEdit: boolean;
  onEdit: () => void;
  onDelete: () => void;
  deleteTitle: string;
  deleteDescription: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-wrap gap-1.5 md:flex-nowrap md:gap-1">
      <RowActionButton icon="pencil" text={t('action.edit')} label={t('action.editSubject', { subject })} onClick={onEdit} autoFocus={focusEdit} />
      <ConfirmDialog
        trigger={<RowActionButton icon="trash" variant="danger" text={t('action.delete')} label={t('action.deleteSubject', { subject })} disabled={busy} />}
        title={deleteTitle}
        description={deleteDescription}
        confirmLabel={t('action.delete')}
        cancelLabel={t('action.cancel')}
        onConfirm={onDelete}
      />
    </div>
  );
}

/** The last cell of a row in edit mode: Save and Cancel. The row's form lives here; its fields join it with `form={formId}`. */
export function EditActionsCell({
  subject,
  formId,
  busy,
  onCancel,
  onSubmit,
}: {
  subject: string;
  formId: string;
  busy: boolean;
  onCancel: () => void;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}) {
  const { t } = useTranslation();
  return (
    <td className={actionsCellClass}>
      {/* Save above Cancel: the sticky cell stays as narrow as the row's own buttons, so it covers none of the row's controls. */}
      <form id={formId} onSubmit={onSubmit} noValidate className="flex flex-col items-stretch gap-1.5">
        <Button type="submit" size="sm" disabled={busy} aria-label={t('action.saveSubject', { subject })}>
          {t('action.save')}
        </Button>
        <Button variant="secondary" size="sm" onClick={onCancel} aria-label={t('action.cancelSubject', { subject })}>
          {t('action.cancel')}
        </Button>
      </form>
    </td>
  );
}

/** `id` tells one outcome from the next with the same words: each is a new toast. */
export type Feedback = { tone: 'success' | 'error'; text: string; id: number };
let lastFeedbackId = 0;
const feedbackOf = (tone: Feedback['tone'], text: string): Feedback => ({ tone, text, id: ++lastFeedbackId });

/**
 * The state of a table with one row in edit mode at a time, and the last outcome shown as a toast
 * in view (a row's result is never only at the top of a section scrolled away).
 * `notice` is a success to show on arrival (a user just created on another page).
 */
export function useRowEditing(notice?: string) {
  const [editingId, setEditingId] = useState<number | null>(null);
  const [lastEditedId, setLastEditedId] = useState<number | null>(null);
  const [feedback, setFeedback] = useState<Feedback | null>(() => (notice ? feedbackOf('success', notice) : null));
  const failureMessage = useFailureMessage();
  return {
    editingId,
    lastEditedId,
    feedback,
    fail: (text: string) => setFeedback(feedbackOf('error', text)),
    succeed: (text: string) => setFeedback(feedbackOf('success', text)),
    dismiss: () => setFeedback(null),
    /** Runs a row's action (a delete) and shows how it went. */
    run: (action: () => Promise<unknown>, successText: string, failure: FailureTexts) => {
      setFeedback(null);
      action().then(
        () => setFeedback(feedbackOf('success', successText)),
        (error: unknown) => setFeedback(feedbackOf('error', failureMessage(error, failure))),
      );
    },
    startEdit: (id: number) => {
      setFeedback(null);
      setEditingId(id);
    },
    /** Leaves edit mode; `success` is shown when the save went through. */
    finishEdit: (success?: string) => {
      setLastEditedId(editingId);
      setEditingId(null);
      if (success) setFeedback(feedbackOf('success', success));
    },
  };
}

/** The last outcome of a row action, as a toast at the bottom of the viewport; a refusal stays until dismissed or replaced. */
export function FeedbackAlert({ feedback, onDismiss }: { feedback: Feedback | null; onDismiss: () => void }) {
  const { t } = useTranslation();
  if (!feedback) return null;
  return (
    // A new outcome is a new toast, with its own timer.
    <Toast key={feedback.id} tone={feedback.tone} onDismiss={onDismiss} dismissLabel={t('action.dismiss')} hideAfterMs={feedback.tone === 'success' ? SUCCESS_SHOWN_MS : undefined}>
      {feedback.text}
    </Toast>
  );
}

/** What a row in edit mode reports back to its table: closed (with the success to show, if saved) or failed. */
export interface EditRowProps {
  onClose: (success?: string) => void;
  onFailure: (text: string) => void;
}

/** A table row in edit mode: highlighted, and Escape anywhere in it cancels. */
export function EditingRow({ onCancel, children }: { onCancel: () => void; children: ReactNode }) {
  return (
    <tr className="bg-brand-50 align-top" onKeyDown={(event) => event.key === 'Escape' && onCancel()}>
      {children}
    </tr>
  );
}

/**
 * The submit handler of a row in edit mode: a save closes it with `successText`; the server's
 * field errors stay on their fields; a 404 closes it too (the list reloads on its own); anything
 * else is reported in a toast in the spec's words (`failure`).
 */
export function useRowSave<TInput extends FieldValues, TOutput>({
  form,
  fields,
  save,
  successText,
  failure,
  onClose,
  onFailure,
}: EditRowProps & {
  form: UseFormReturn<TInput, unknown, TOutput>;
  fields: readonly (keyof TInput & string)[];
  save: (values: TOutput) => Promise<unknown>;
  successText: string;
  failure: FailureTexts;
}) {
  const failureMessage = useFailureMessage();
  return form.handleSubmit(async (values) => {
    try {
      await save(values);
      onClose(successText);
    } catch (error) {
      if (applyFieldErrors<TInput>(error, form.setError as (name: keyof TInput & string, error: { type: string; message: string }) => void, fields)) return;
      onFailure(failureMessage(error, failure));
      if (error instanceof ApiError && error.status === 404) onClose();
    }
  });
}
