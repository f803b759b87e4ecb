import { PRIORITIES } from '@siteboard/shared';
import { forwardRef, type SelectHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField } from '../../../components/ui/form-field';

/** The subtask priority dropdown of both task forms. */
export const PrioritySelect = forwardRef<HTMLSelectElement, { error?: string } & SelectHTMLAttributes<HTMLSelectElement>>(function PrioritySelect({ error, ...props }, ref) {
  const { t } = useTranslation();
  return (
    <SelectField ref={ref} label={t('taskBoard.priority')} error={error} {...props}>
      {PRIORITIES.map((priority) => (
        <option key={priority} value={priority}>
          {t(`priority.${priority}`)}
        </option>
      ))}
    </SelectField>
  );
});
