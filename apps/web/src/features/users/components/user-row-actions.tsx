import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '@siteboard/shared';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { SelectField } from '../../../components/ui/form-field';
import { personLabel } from '../../../components/ui/person-text';
import { RowActionButton } from '../../../components/ui/row-action-button';
import { loadOnApproach, preloadableLazy, useMountedFromFirstOpen } from '../../../lib/preloadable-lazy';
import { useKnownUserOpenWork, useUserOpenWork } from '../api/get-user-open-work';
import { useAssignablePeople } from '../api/get-users';
import { LazyPart } from '../../../components/ui/lazy-part';

// The set-password dialog (its form, the password rule from auth.ts, which brings zod and the zone
// list) loads when pointed at or first opened: the users table draws without it (decision record 095).
const { Component: SetPasswordDialog, load: loadSetPassword } = preloadableLazy(() => import('./set-password-form').then((module) => module.SetPasswordDialog));

/**
 * Edit, and Delete after a confirmation that also asks who takes over the user's open work (their
 * manager first, or anyone else who can be assigned work): the server moves it in the same step.
 */
export function DeleteUserActions({
  user,
  busy,
  focusEdit,
  onEdit,
  onDelete,
}: {
  user: User;
  busy: boolean;
  focusEdit: boolean;
  onEdit: () => void;
  onDelete: (reassignTo: number | undefined) => void;
}) {
  const { t } = useTranslation();
  const [heir, setHeir] = useState<string>('');
  // A manager with a team cannot be deleted yet (what the question's OpenWork asked says so).
  const known = useKnownUserOpenWork(user.id);
  const leadsTeam = (known?.team_members ?? 0) > 0;
  // Only open subtasks move: with none, nobody is asked to take them (the question says there are none).
  const hasOpenWork = (known?.open_subtasks ?? 0) > 0;
  return (
    <>
      <RowActionButton icon="pencil" text={t('action.edit')} label={t('action.editSubject', { subject: user.email })} onClick={onEdit} autoFocus={focusEdit} />
      <ConfirmDialog
        trigger={<RowActionButton icon="trash" variant="danger" text={t('action.delete')} label={t('action.deleteSubject', { subject: user.email })} disabled={busy} />}
        title={t('admin.users.deleteTitle')}
        description={
          <>
            {t('admin.users.deleteDescription', { email: personLabel(user) })}
            <OpenWork user={user} />
            {/* Nobody takes over the work of a deletion that cannot happen yet, nor work there is none of. */}
            {!leadsTeam && hasOpenWork && <HeirChoice user={user} value={heir} onChange={setHeir} />}
          </>
        }
        confirmLabel={t('action.delete')}
        cancelLabel={t('action.cancel')}
        confirmDisabled={leadsTeam}
        onConfirm={() => onDelete(heir && hasOpenWork ? Number(heir) : undefined)}
      />
    </>
  );
}

/**
 * What the deletion touches, asked when the question opens: how many open subtasks move, or that a
 * manager's team must move first (the server refuses that deletion; Delete waits meanwhile).
 */
function OpenWork({ user }: { user: User }) {
  const { t } = useTranslation();
  const openWork = useUserOpenWork(user.id);
  if (!openWork.data) return null;
  const teamMembers = openWork.data.team_members;
  if (teamMembers > 0) {
    return (
      <span role="alert" className="mt-3 block font-medium text-red-700">
        {t('admin.users.leadsTeam', { count: teamMembers })}
      </span>
    );
  }
  const open = openWork.data.open_subtasks;
  const awaiting = openWork.data.awaiting_approval;
  return (
    <>
      <span className="mt-3 block">{open > 0 ? t('admin.users.openSubtasks', { count: open }) : t('admin.users.noOpenSubtasks')}</span>
      {awaiting > 0 && <span className="mt-2 block">{t('admin.users.awaitingApproval', { count: awaiting })}</span>}
    </>
  );
}

/** Who takes over: the user's manager is offered first and chosen by default. */
function HeirChoice({ user, value, onChange }: { user: User; value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  const people = useAssignablePeople();
  const candidates = (people.data ?? []).filter((person) => person.id !== user.id);
  const manager = candidates.find((person) => person.id === user.manager_id);
  const ordered = manager ? [manager, ...candidates.filter((person) => person !== manager)] : candidates;
  const first = ordered[0];
  if (!value && first) queueMicrotask(() => onChange(String(first.id)));
  if (people.isPending) return null;
  if (ordered.length === 0) return <span className="mt-3 block">{t('account.noOneToReassign')}</span>;
  return (
    <span className="mt-4 block text-left">
      <SelectField label={t('account.reassignTo')} hint={t('account.reassignHint')} value={value} onChange={(event) => onChange(event.target.value)}>
        {ordered.map((person) => (
          <option key={person.id} value={person.id}>
            {person === manager ? t('account.reassignManager', { name: personLabel(person) }) : personLabel(person)}
          </option>
        ))}
      </SelectField>
    </span>
  );
}

/** "Set new password" for another user: they are signed out everywhere and must choose their own at next sign-in. */
export function SetPasswordButton({ user, onDone }: { user: User; onDone: (text: string) => void }) {
  const { t } = useTranslation();
  const { open, setOpen, mounted, show } = useMountedFromFirstOpen();
  return (
    <>
      <RowActionButton icon="key" text={t('account.setPassword')} label={t('account.setPasswordSubject', { subject: user.email })} {...loadOnApproach(loadSetPassword)} onClick={show} />
      {mounted && (
        <LazyPart>
          <SetPasswordDialog user={user} open={open} onOpenChange={setOpen} onDone={onDone} />
        </LazyPart>
      )}
    </>
  );
}
