import { zodResolver } from '@hookform/resolvers/zod';
import { declineReasonInput, type Subtask } from '@siteboard/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextAreaField } from '../../../components/ui/form-field';
import { Modal } from '../../../components/ui/modal';

/**
 * "Decline Task" asks why: the reason is required here (the API accepts a decline without one for
 * the spec's client), sent with the decline, shown to the assignee and kept in the timeline.
 * `decline` resolves to null when it worked (the dialog closes), else to the failure's text, which
 * the dialog shows while keeping the reason typed.
 */
export function DeclineButton({ subtask, disabled, decline }: { subtask: Subtask; disabled?: boolean; decline: (reason: string) => Promise<string | null> }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<{ text: string }>({ resolver: zodResolver(declineReasonInput), defaultValues: { text: '' } });
  const submit = form.handleSubmit(async ({ text }) => {
    const refused = await decline(text);
    setFailure(refused);
    if (!refused) {
      setOpen(false);
      form.reset();
    }
  });
  return (
    <>
      <Button variant="secondary" className="px-3 py-1.5" disabled={disabled} onClick={() => {
          setFailure(null);
          setOpen(true);
        }}>
        {t('taskBoard.decline')}
      </Button>
      <Modal open={open} onOpenChange={setOpen} title={t('record.decline.title')} description={t('record.decline.description', { assignee: subtask.assigned_to ? (subtask.assigned_to.full_name ?? subtask.assigned_to.email) : t('record.someone') })}>
        <form onSubmit={submit} noValidate className="space-y-4">
          <p className="break-words text-sm font-medium text-slate-800">{subtask.name}</p>
          <TextAreaField label={t('record.decline.reason')} maxLength={2000} error={form.formState.errors.text?.message} {...form.register('text')} />
          {failure && <Alert tone="error">{failure}</Alert>}
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
