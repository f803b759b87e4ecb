import type { ExpandedProject, User } from '@siteboard/shared';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { SelectField } from '../../../components/ui/form-field';
import { CreateSubtaskForm } from './create-subtask-form';

const namedOptions = (items: readonly { id: number; name: string }[]) =>
  items.map((item) => (
    <option key={item.id} value={item.id}>
      {item.name}
    </option>
  ));

/**
 * The team member's Create Task screen: they cannot create major tasks, only subtasks under the
 * major tasks of projects that are not completed (spec §6), so they pick the project and the task.
 */
export function CreateSubtaskPicker({ projects, users, companyId }: { projects: ExpandedProject[] | undefined; users: User[] | undefined; companyId: number | undefined }) {
  const { t } = useTranslation();
  const id = useId();
  const [projectId, setProjectId] = useState('');
  const [majorTaskId, setMajorTaskId] = useState('');
  const [created, setCreated] = useState(false);
  const open = (projects ?? []).filter((project) => project.status !== 'completed');
  const majorTasks = open.find((project) => String(project.id) === projectId)?.major_tasks ?? [];

  return (
    <div className="max-w-3xl space-y-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      {created && <Alert tone="success">{t('taskBoard.subtaskCreated')}</Alert>}
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label={t('taskBoard.project')}
          value={projectId}
          onChange={(event) => {
            setProjectId(event.target.value);
            setMajorTaskId('');
          }}
        >
          <option value="">{t('taskBoard.selectProject')}</option>
          {namedOptions(open)}
        </SelectField>
        <SelectField label={t('taskBoard.majorTask')} value={majorTaskId} disabled={!projectId} onChange={(event) => setMajorTaskId(event.target.value)}>
          <option value="">{t('taskBoard.selectMajorTask')}</option>
          {namedOptions(majorTasks)}
        </SelectField>
      </div>
      {projectId && majorTasks.length === 0 && <p className="text-sm text-slate-500">{t('taskBoard.noMajorTasks')}</p>}
      {majorTaskId && (
        <CreateSubtaskForm
          key={majorTaskId}
          id={`${id}-form`}
          majorTaskId={Number(majorTaskId)}
          users={users}
          companyId={companyId}
          onCreated={() => {
            setMajorTaskId('');
            setCreated(true);
          }}
        />
      )}
    </div>
  );
}
