import { useQuery, type QueryKey } from '@tanstack/react-query';
import type { ExpandedProject, Project, User } from '@siteboard/shared';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { SelectField } from '../../../components/ui/form-field';
import type { ListSearch } from '../../../lib/lists';
import { CreateSubtaskForm } from './create-subtask-form';
import { ProjectPicker } from './pickers';

interface Props {
  /** The server's search among the projects that still take tasks. */
  findProjects: ListSearch<Pick<Project, 'id' | 'name'>>;
  /** The chosen project with its major tasks. */
  projectQuery: (projectId: number) => { queryKey: QueryKey; queryFn: () => Promise<ExpandedProject> };
  findAssignees: ListSearch<User>;
}

/**
 * The team member's Create Task screen: they cannot create major tasks, only subtasks under the
 * major tasks of projects that are not completed (spec §6), so they pick the project and the task.
 */
export function CreateSubtaskPicker({ findProjects, projectQuery, findAssignees }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [projectId, setProjectId] = useState('');
  const [majorTaskId, setMajorTaskId] = useState('');
  const [created, setCreated] = useState(false);
  const project = useQuery({ ...projectQuery(Number(projectId)), enabled: projectId !== '' });
  const majorTasks = projectId ? (project.data?.major_tasks ?? []) : [];
  const chooseProject = (value: string) => {
    setProjectId(value);
    setMajorTaskId('');
  };

  return (
    <div className="max-w-3xl space-y-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      {created && <Alert tone="success">{t('taskBoard.subtaskCreated')}</Alert>}
      <div className="grid gap-4 sm:grid-cols-2">
        <ProjectPicker className="grid gap-4 sm:col-span-2 sm:grid-cols-2" find={findProjects} value={projectId} onSearch={() => chooseProject('')} onChange={(event) => chooseProject(event.target.value)} />
        <SelectField label={t('taskBoard.majorTask')} value={majorTaskId} disabled={!project.data} onChange={(event) => setMajorTaskId(event.target.value)}>
          <option value="">{projectId && project.isPending ? t('app.loading') : t('taskBoard.selectMajorTask')}</option>
          {majorTasks.map((majorTask) => (
            <option key={majorTask.id} value={majorTask.id}>
              {majorTask.name}
            </option>
          ))}
        </SelectField>
      </div>
      {project.data && majorTasks.length === 0 && <p className="text-sm text-slate-500">{t('taskBoard.noMajorTasks')}</p>}
      {majorTaskId && (
        <CreateSubtaskForm
          key={majorTaskId}
          id={`${id}-form`}
          majorTaskId={Number(majorTaskId)}
          projectId={Number(projectId)}
          projectManagerId={project.data?.manager?.id ?? null}
          findAssignees={findAssignees}
          onCreated={() => {
            setMajorTaskId('');
            setCreated(true);
          }}
        />
      )}
    </div>
  );
}
