import { zodResolver } from '@hookform/resolvers/zod';
import { declineReasonInput, type Subtask } from '@siteboard/shared';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextAreaField } from '../../../components/ui/form-field';
import { Modal } from '../../../components/ui/modal';

/** The decline dialog of DeclineButton (decline-dialog.tsx): the reason, required, and the failure that kept it open. */
export function DeclineDialog({
  subtask,
  open,
  onOpenChange,
  failure,
  setFailure,
  decline,
}: {
  subtask: Subtask;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  failure: string | null;
  setFailure: (failure: string | null) => void;
  decline: (reason: string) => Promise<string | null>;
}) {
  const { t } = useTranslation();
  const form = useForm<{ text: string }>({ resolver: zodResolver(declineReasonInput), defaultValues: { text: '' } });
  const submit = form.handleSubmit(async ({ text }) => {
    const refused = await decline(text);
    setFailure(refused);
    if (!refused) {
      onOpenChange(false);
      form.reset();
    }
  });
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={t('record.decline.title')} description={t('record.decline.description', { assignee: subtask.assigned_to ? (subtask.assigned_to.full_name ?? subtask.assigned_to.email) : t('record.someone') })}>
      <form onSubmit={submit} noValidate className="space-y-4">
        <p className="break-words text-sm font-medium text-slate-800">{subtask.name}</p>
        <TextAreaField label={t('record.decline.reason')} maxLength={2000} error={form.formState.errors.text?.message} {...form.register('text')} />
        {failure && <Alert tone="error">{failure}</Alert>}
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {t('record.cancel')}
          </Button>
          <Button type="submit" variant="danger" disabled={form.formState.isSubmitting}>
            {t('taskBoard.decline')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
