import type { User } from '@siteboard/shared';
import { forwardRef, useState, type SelectHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField, TextField } from '../../../components/ui/form-field';
import { assignableUsers } from '../tasks.rules';

type Props = {
  /** Undefined while the company's users load. */
  users: User[] | undefined;
  companyId: number | undefined;
  error?: string;
  /** Typing in the search clears the chosen assignee (spec §5): the form resets its value here. */
  onSearch: () => void;
} & SelectHTMLAttributes<HTMLSelectElement>;

/** A search box beside the assignee dropdown (two columns of the form's grid): managers and team members, narrowed by e-mail. */
export const AssigneePicker = forwardRef<HTMLSelectElement, Props>(function AssigneePicker({ users, companyId, error, onSearch, ...selectProps }, ref) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const options = assignableUsers(users ?? [], companyId, search);
  return (
    <div className="grid gap-4 sm:grid-cols-2 md:col-span-2">
      <TextField
        type="search"
        label={t('taskBoard.searchAssignee')}
        placeholder={t('taskBoard.searchAssigneePlaceholder')}
        autoComplete="off"
        value={search}
        onChange={(event) => {
          setSearch(event.target.value);
          onSearch();
        }}
      />
      <div className="space-y-1">
        <SelectField ref={ref} label={t('taskBoard.assignee')} error={error} {...selectProps}>
          <option value="">{users ? t('taskBoard.selectAssignee') : t('app.loading')}</option>
          {options.map((user) => (
            <option key={user.id} value={user.id}>
              {user.email}
            </option>
          ))}
        </SelectField>
        {users && options.length === 0 && <p className="text-sm text-slate-600">{t('taskBoard.noAssignees')}</p>}
      </div>
    </div>
  );
});
