import type { MajorTaskSummary, Project, User } from '@siteboard/shared';
import type { Ref, SelectHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchSelect } from '../../../components/ui/search-select';
import type { ListSearch } from '../../../lib/lists';
import { personLabel } from '../../../components/ui/person-text';

type PickerProps<T> = {
  find: ListSearch<T>;
  /** The first, empty choice; by default "Select …". */
  placeholder?: string;
  error?: string;
  /** Typing in the search clears the choice: the form resets its value here. */
  onSearch: () => void;
  /** The current choice of an edit, listed first whatever the search finds. */
  pinned?: { value: number; label: string };
  className?: string;
  initialChoice?: string;
  /** The match chosen (undefined: none), for a form that needs more of it than its id. */
  onPick?: (item: T | undefined) => void;
  ref?: Ref<HTMLSelectElement>;
} & SelectHTMLAttributes<HTMLSelectElement>;

/**
 * The assignee search box and dropdown (two columns of the form's grid): the server's matches among
 * the company's managers and team members (spec §5), the crew listed first and the managers apart,
 * so a manager is never taken for one of the crew.
 */
export function AssigneePicker({ placeholder, ...props }: PickerProps<User>) {
  const { t } = useTranslation();
  return (
    <SearchSelect
      className="grid gap-4 sm:grid-cols-2 md:col-span-2"
      toOption={(user) => ({ value: user.id, label: personLabel(user), group: user.role })}
      groups={[
        { key: 'team_member', label: t('assignees.crew') },
        { key: 'manager', label: t('assignees.managers') },
      ]}
      searchLabel={t('taskBoard.searchAssignee')}
      searchPlaceholder={t('taskBoard.searchAssigneePlaceholder')}
      label={t('taskBoard.assignee')}
      placeholder={placeholder ?? t('taskBoard.selectAssignee')}
      empty={t('taskBoard.noAssignees')}
      {...props}
    />
  );
}

/** The project search box and dropdown of a create-task screen: the server's matches among the projects that still take tasks. */
export function ProjectPicker(props: PickerProps<Pick<Project, 'id' | 'name'>>) {
  const { t } = useTranslation();
  return (
    <SearchSelect
      toOption={(project) => ({ value: project.id, label: project.name })}
      searchLabel={t('taskBoard.searchProject')}
      searchPlaceholder={t('taskBoard.searchProjectPlaceholder')}
      label={t('taskBoard.project')}
      placeholder={t('taskBoard.selectProject')}
      empty={t('projectBoard.empty')}
      {...props}
    />
  );
}

/**
 * The major task search box and dropdown of the team member's Create Task screen: the server's
 * matches among the chosen project's major tasks, so one of hundreds is found by typing a part of its name.
 */
export function MajorTaskPicker(props: PickerProps<MajorTaskSummary>) {
  const { t } = useTranslation();
  return (
    <SearchSelect
      toOption={(majorTask) => ({ value: majorTask.id, label: majorTask.name })}
      searchLabel={t('taskBoard.searchMajorTask')}
      searchPlaceholder={t('taskBoard.searchMajorTaskPlaceholder')}
      label={t('taskBoard.majorTask')}
      placeholder={t('taskBoard.selectMajorTask')}
      empty={t('taskBoard.noMajorTasks')}
      noMatch={t('projectBoard.noMatchingMajorTasks')}
      {...props}
    />
  );
}
