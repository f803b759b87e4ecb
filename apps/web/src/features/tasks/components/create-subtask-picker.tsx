import type { MajorTaskSummary, Project, User } from '@siteboard/shared';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { SelectField } from '../../../components/ui/form-field';
import type { ListSearch } from '../../../lib/lists';
import { CreateSubtaskForm } from './create-subtask-form';
import { MajorTaskPicker, ProjectPicker } from './pickers';

interface Props {
  /** The server's search among the projects that still take tasks. */
  findProjects: ListSearch<Pick<Project, 'id' | 'name'>>;
  /** The server's search among the chosen project's major tasks (a page of matches, never the project's whole tree). */
  findMajorTasks: (projectId: number) => ListSearch<MajorTaskSummary>;
  findAssignees: ListSearch<User>;
}

/**
 * The team member's Create Task screen: they cannot create major tasks, only subtasks under the
 * major tasks of projects that are not completed (spec §6), so they pick the project and the task.
 */
export function CreateSubtaskPicker({ findProjects, findMajorTasks, findAssignees }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [projectId, setProjectId] = useState('');
  const [majorTask, setMajorTask] = useState<MajorTaskSummary | undefined>();
  // How many subtasks were created here: each success is shown (and focused) anew, under a fresh form.
  const [created, setCreated] = useState(0);
  const chooseProject = (value: string) => {
    setProjectId(value);
    setMajorTask(undefined);
  };

  return (
    <div className="max-w-3xl space-y-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      {created > 0 && <Alert key={created} tone="success" focusOnShow>{t('taskBoard.subtaskCreated')}</Alert>}
      <div className="grid gap-4 sm:grid-cols-2">
        <ProjectPicker className="grid gap-4 sm:col-span-2 sm:grid-cols-2" find={findProjects} value={projectId} onSearch={() => chooseProject('')} onChange={(event) => chooseProject(event.target.value)} />
        {projectId ? (
          // A picker of its own per project: another project's search and matches do not stay.
          <MajorTaskPicker key={projectId} className="grid gap-4 sm:col-span-2 sm:grid-cols-2" find={findMajorTasks(Number(projectId))} value={majorTask?.id ?? ''} onSearch={() => setMajorTask(undefined)} onPick={setMajorTask} />
        ) : (
          <SelectField label={t('taskBoard.majorTask')} value="" disabled>
            <option value="">{t('taskBoard.selectMajorTask')}</option>
          </SelectField>
        )}
      </div>
      {majorTask && (
        <CreateSubtaskForm
          key={`${majorTask.id}:${created}`}
          id={`${id}-form`}
          majorTaskId={majorTask.id}
          projectId={majorTask.project_id}
          projectManagerId={majorTask.project.manager_id}
          findAssignees={findAssignees}
          // The project and major task stay chosen: a crew often adds several subtasks to one task in a row.
          onCreated={() => setCreated((count) => count + 1)}
        />
      )}
    </div>
  );
}
