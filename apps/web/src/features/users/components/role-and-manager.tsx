import { useEffect } from 'react';
import { useWatch, type FieldValues, type Path, type PathValue, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ASSIGNABLE_ROLES } from '@siteboard/shared';
import { SelectField } from '../../../components/ui/form-field';
import { personLabel } from '../../../components/ui/person-text';
import { useManagers } from '../api/get-users';

/** What a form that adds a person holds of their place: a role, and for a team member the manager they report to. */
interface RoleAndManager extends FieldValues {
  role: string;
  manager_id?: unknown;
}

/**
 * The role and manager of a form that adds a person (Create User, Invite), and the company's
 * managers to choose from. A company without a manager yet starts on Manager, since a team member
 * needs one first (unless the role was already chosen); a team member's manager is always one of
 * the managers, the first while the choice is none of them.
 */
export function useManagerChoice<Input extends RoleAndManager, Output extends FieldValues>(form: UseFormReturn<Input, unknown, Output>) {
  const managersQuery = useManagers();
  const [role, managerId] = useWatch({ control: form.control, name: ['role', 'manager_id'] as Path<Input>[] }) as [string, unknown];
  const managers = managersQuery.data;
  const isTeamMember = role === 'team_member';
  const noManagers = managers !== undefined && managers.length === 0;

  useEffect(() => {
    if (noManagers && !(form.formState.dirtyFields as { role?: boolean }).role) form.setValue('role' as Path<Input>, 'manager' as PathValue<Input, Path<Input>>);
  }, [form, noManagers]);

  useEffect(() => {
    if (!isTeamMember || !managers?.length) return;
    if (!managers.some((manager) => String(manager.id) === String(managerId))) form.setValue('manager_id' as Path<Input>, String(managers[0].id) as PathValue<Input, Path<Input>>);
  }, [form, isTeamMember, managerId, managers]);

  return { managersQuery, managers, managerId, isTeamMember, noManagers };
}

/**
 * The role select and, for a team member, the manager select (an empty cell beside the role
 * otherwise, so the two-column grid keeps its rows): the same two fields on Create User and Invite.
 */
export function RoleAndManagerFields<Input extends RoleAndManager, Output extends FieldValues>({
  form,
  choice,
}: {
  form: UseFormReturn<Input, unknown, Output>;
  choice: ReturnType<typeof useManagerChoice>;
}) {
  const { t } = useTranslation();
  const { managersQuery, managers, isTeamMember, noManagers } = choice;
  const errors = form.formState.errors as { role?: { message?: string }; manager_id?: { message?: string } };
  return (
    <>
      <SelectField label={t('admin.users.role')} error={errors.role?.message} {...form.register('role' as Path<Input>)}>
        {ASSIGNABLE_ROLES.map((value) => (
          <option key={value} value={value}>
            {t(`role.${value}`)}
          </option>
        ))}
      </SelectField>
      {isTeamMember ? (
        <SelectField
          label={t('admin.users.manager')}
          disabled={managersQuery.isPending || noManagers}
          error={noManagers ? 'admin.createUser.noManagers' : errors.manager_id?.message}
          {...form.register('manager_id' as Path<Input>)}
        >
          {noManagers && <option value="">{t('admin.createUser.noManagersAtAll')}</option>}
          {managers?.map((manager) => (
            <option key={manager.id} value={manager.id}>
              {personLabel(manager)}
            </option>
          ))}
        </SelectField>
      ) : (
        <div aria-hidden className="hidden sm:block" />
      )}
    </>
  );
}
