import { zodResolver } from '@hookform/resolvers/zod';
import { declineReasonInput, type Subtask } from '@siteboard/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { TextAreaField } from '../../../components/ui/form-field';
import { Modal } from '../../../components/ui/modal';

/**
 * "Decline Task" asks why: the reason is required here (the API accepts a decline without one for
 * the spec's client), sent with the decline, shown to the assignee and kept in the timeline.
 * `decline` resolves to whether it worked; the dialog closes when it did.
 */
export function DeclineButton({ subtask, disabled, decline }: { subtask: Subtask; disabled?: boolean; decline: (reason: string) => Promise<boolean> }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const form = useForm<{ text: string }>({ resolver: zodResolver(declineReasonInput), defaultValues: { text: '' } });
  const submit = form.handleSubmit(async ({ text }) => {
    if (await decline(text)) {
      setOpen(false);
      form.reset();
    }
  });
  return (
    <>
      <Button variant="secondary" className="px-3 py-1.5" disabled={disabled} onClick={() => setOpen(true)}>
        {t('taskBoard.decline')}
      </Button>
      <Modal open={open} onOpenChange={setOpen} title={t('record.decline.title')} description={t('record.decline.description', { assignee: subtask.assigned_to?.email ?? t('record.someone') })}>
        <form onSubmit={submit} noValidate className="space-y-4">
          <p className="break-words text-sm font-medium text-slate-800">{subtask.name}</p>
          <TextAreaField label={t('record.decline.reason')} maxLength={2000} error={form.formState.errors.text?.message} {...form.register('text')} />
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="secondary" onClick={() => setOpen(false)}>
              {t('record.cancel')}
            </Button>
            <Button type="submit" variant="danger" disabled={form.formState.isSubmitting}>
              {t('taskBoard.decline')}
            </Button>
          </div>
        </form>
      </Modal>
    </>
  );
}
