import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ROLES, updateUserInput, type User } from '@siteboard/shared';
import type { z } from 'zod';
import { SelectField, TextField } from '../../../components/ui/form-field';
import { EditActionsCell, EditingRow, useRowSave, type EditRowProps } from '../../../components/ui/editable-rows';
import { EmailText } from '../../../components/ui/email-text';
import { personLabel } from '../../../components/ui/person-text';
import { wrapCellClass } from '../../../components/ui/table';
import { useUpdateUser } from '../api/update-user';

type EditInput = z.input<typeof updateUserInput>;
type EditOutput = z.output<typeof updateUserInput>;

const EDIT_FIELDS = ['full_name', 'role', 'designation', 'mobile_number', 'manager_id'] as const;

/** Spec §8: a user that is gone, a refusal, else the server's own words. */
const FAILURE = { notFound: 'admin.users.notFound', forbidden: 'admin.users.forbiddenUpdate', other: 'admin.users.failed' };

/**
 * A row of AdminUsersTable (admin-users-table.tsx) in edit mode: name, role, designation, mobile
 * number and, for a team member, their manager. Loaded when its Edit is first pointed at or used.
 */
export function UserEditRow({ user, managers, ...result }: EditRowProps & { user: User; managers: User[] }) {
  const { t } = useTranslation();
  const update = useUpdateUser();
  const formId = `edit-user-${user.id}`;
  // An unmounted manager select leaves the values, so a role without a manager sends none.
  const form = useForm<EditInput, unknown, EditOutput>({
    resolver: zodResolver(updateUserInput),
    shouldUnregister: true,
    defaultValues: {
      full_name: user.full_name ?? '',
      role: user.role,
      designation: user.designation ?? '',
      mobile_number: user.mobile_number ?? '',
      manager_id: String(managers.some((manager) => manager.id === user.manager_id) ? user.manager_id : (managers[0]?.id ?? '')),
    },
  });
  const role = useWatch({ control: form.control, name: 'role' });
  const needsManager = role === 'team_member';
  const { errors } = form.formState;

  const onSubmit = useRowSave({
    form,
    fields: EDIT_FIELDS,
    save: (input) => update.mutateAsync({ id: user.id, input }),
    successText: t('admin.users.updated'),
    failure: FAILURE,
    ...result,
  });

  // One cell for the five fields, labelled and laid out in a grid: the row keeps the table's width
  // at 1280 px, so no control sits under the sticky Save and Cancel (issue 25). The zero-width box
  // that fills its cell keeps the controls (a select is as wide as its longest option) from
  // widening the table; they shrink to the columns the other rows need.
  return (
    <EditingRow onCancel={() => result.onClose()}>
      <th scope="row" className={`${wrapCellClass} font-medium text-ink`}>
        <span className="block">
          <EmailText email={user.email} />
        </span>
        <span className="block text-xs font-normal text-slate-600">{user.code}</span>
      </th>
      <td colSpan={5} className={wrapCellClass}>
        <div className="w-0 min-w-full">
        <div className="grid gap-3 sm:grid-cols-2 [&>*]:min-w-0">
          <TextField label={t('account.fullName')} form={formId} error={errors.full_name?.message} {...form.register('full_name')} />
          <SelectField label={t('admin.users.role')} form={formId} autoFocus error={errors.role?.message} {...form.register('role')}>
            {ROLES.map((value) => (
              <option key={value} value={value}>
                {t(`role.${value}`)}
              </option>
            ))}
          </SelectField>
          <TextField label={t('admin.users.designation')} form={formId} error={errors.designation?.message} {...form.register('designation')} />
          <TextField label={t('admin.users.mobile')} form={formId} type="tel" error={errors.mobile_number?.message} {...form.register('mobile_number')} />
          {needsManager &&
            (managers.length === 0 ? (
              <p role="alert" className="self-end text-sm text-red-700">
                {t('admin.createUser.noManagers')}
              </p>
            ) : (
              <SelectField label={t('admin.users.manager')} form={formId} error={errors.manager_id?.message} {...form.register('manager_id')}>
                {managers.map((manager) => (
                  <option key={manager.id} value={manager.id}>
                    {personLabel(manager)}
                  </option>
                ))}
              </SelectField>
            ))}
        </div>
        </div>
      </td>
      <EditActionsCell subject={user.email} formId={formId} busy={form.formState.isSubmitting || (needsManager && managers.length === 0)} onCancel={() => result.onClose()} onSubmit={onSubmit} />
    </EditingRow>
  );
}
