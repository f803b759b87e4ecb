import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { END_BEFORE_START, PROJECT_STATUSES, updateProjectInput, type Project } from '@siteboard/shared';
import type { z } from 'zod';
import { StatusBadge } from '../../../components/ui/badges';
import { Chevron } from '../../../components/ui/chevron';
import { SelectField, TextField } from '../../../components/ui/form-field';
import { EditActionsCell, EditingRow, FeedbackAlert, useRowEditing, useRowSave, ViewActions, type EditRowProps } from '../../../components/ui/editable-rows';
import { personLabel, PersonText } from '../../../components/ui/person-text';
import { ShowMore } from '../../../components/ui/show-more';
import { useConfirm } from '../../../components/ui/confirm-dialog';
import { ApiError } from '../../../lib/api-client';
import { actionsCellClass, cellClass, Table, wrapCellClass } from '../../../components/ui/table';
import { formatDate } from '../../../lib/format';
import type { PagedList } from '../../../lib/lists';
import { useDeleteProject } from '../api/delete-project';
import { useUpdateProject } from '../api/update-project';
import { AdminProjectTasks } from './admin-project-tasks';
import { ExpandedProjectTasks } from './expanded-project';
import { ProjectOpenWork } from './project-open-work';

export interface ManagerOption {
  id: number;
  email: string;
}

/** The server checks the merged row; the form checks the dates it shows before sending them. */
const editSchema = updateProjectInput.refine((input) => !input.start_date || !input.end_date || input.end_date >= input.start_date, {
  path: ['end_date'],
  message: END_BEFORE_START,
});
type EditInput = z.input<typeof editSchema>;
type EditOutput = z.output<typeof editSchema>;

const EDIT_FIELDS = ['name', 'description', 'start_date', 'end_date', 'manager', 'status'] as const;

/** Spec §8: a project that is gone, a refusal, else "Failed to … project: " and the server's words. */
const FAILURE = {
  update: { notFound: 'admin.projects.notFound', forbidden: 'admin.projects.forbiddenUpdate', other: 'admin.projects.updateFailed' },
  delete: { notFound: 'admin.projects.notFound', forbidden: 'admin.projects.forbiddenDelete', other: 'admin.projects.deleteFailed' },
};

type Summary = Omit<Project, 'major_tasks'>;

/**
 * One of the dashboard's two project lists, ten at a time from the server. Ongoing (and planned)
 * projects open to show their major tasks and subtasks, fetched then; completed ones do not open
 * (spec §2). Both edit inline and delete after a confirmation.
 */
export function AdminProjectsTable({ kind, projects, managers, list }: { kind: 'ongoing' | 'completed'; projects: Project[]; managers: ManagerOption[]; list: PagedList }) {
  const { t } = useTranslation();
  const rows = useRowEditing();
  const [expanded, setExpanded] = useState<Set<number>>(new Set());
  const deleteProject = useDeleteProject();
  const columns = ['name', 'description', 'startDate', 'endDate', 'manager', 'status'].map((column) => t(`admin.projects.${column}`));
  const entries: { project: Summary; tasks?: ReactNode }[] = projects.map((project) => ({
    project,
    tasks: kind === 'ongoing' ? <ExpandedProjectTasks projectId={project.id}>{(expanded) => <AdminProjectTasks project={expanded} />}</ExpandedProjectTasks> : undefined,
  }));

  const toggle = (id: number) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <>
      <FeedbackAlert feedback={rows.feedback} onDismiss={rows.dismiss} />
      <Table
        stackOnPhone
        label={t(kind === 'ongoing' ? 'admin.ongoingProjects' : 'admin.completedProjects')}
        columns={[...columns, <span className="sr-only">{t('admin.actions')}</span>]}
        isEmpty={entries.length === 0}
        empty={t(kind === 'ongoing' ? 'admin.projects.emptyOngoing' : 'admin.projects.emptyCompleted')}
      >
        {entries.map(({ project, tasks }) =>
          rows.editingId === project.id ? (
            <ProjectEditRow key={project.id} project={project} managers={managers} onClose={rows.finishEdit} onFailure={rows.fail} />
          ) : (
            <ProjectRow
              key={project.id}
              project={project}
              tasks={tasks}
              open={expanded.has(project.id)}
              onToggle={() => toggle(project.id)}
              columnCount={columns.length + 1}
              actions={
                <ViewActions
                  subject={project.name}
                  busy={deleteProject.isPending && deleteProject.variables === project.id}
                  focusEdit={rows.lastEditedId === project.id}
                  onEdit={() => rows.startEdit(project.id)}
                  onDelete={() => rows.run(() => deleteProject.mutateAsync(project.id), t('admin.projects.deleted'), FAILURE.delete)}
                  deleteTitle={t('admin.projects.deleteTitle')}
                  deleteDescription={t('admin.projects.deleteDescription', { name: project.name })}
                />
              }
            />
          ),
        )}
      </Table>
      <ShowMore list={list} />
    </>
  );
}

/** A project's row and, when it is open, the row below it with its major tasks (only a project that has `tasks` to show opens). */
function ProjectRow({
  project,
  tasks,
  open,
  onToggle,
  columnCount,
  actions,
}: {
  project: Summary;
  tasks: ReactNode;
  open: boolean;
  onToggle: () => void;
  columnCount: number;
  actions: ReactNode;
}) {
  const { t } = useTranslation();
  const detailsId = `project-${project.id}-tasks`;
  const expandable = tasks !== undefined;
  return (
    <>
      <tr className={expandable ? 'bg-white' : 'bg-slate-50'}>
        <th scope="row" className={`${wrapCellClass} min-w-32 font-medium text-ink`}>
          {expandable ? (
            <button
              type="button"
              className="inline-flex items-start gap-1.5 rounded text-left font-medium text-ink hover:text-brand-700"
              aria-expanded={open}
              aria-controls={open ? detailsId : undefined}
              onClick={onToggle}
            >
              <span className="mt-0.5">
                <Chevron open={open} />
              </span>
              {project.name}
            </button>
          ) : (
            project.name
          )}
        </th>
        <td data-label={t('admin.projects.description')} className={`${wrapCellClass} min-w-32`}>
          {project.description || t('common.notAvailable')}
        </td>
        <td data-label={t('admin.projects.startDate')} className={cellClass}>
          {formatDate(project.start_date)}
        </td>
        <td data-label={t('admin.projects.endDate')} className={cellClass}>
          {formatDate(project.end_date)}
        </td>
        <td data-label={t('admin.projects.manager')} className={wrapCellClass}>
          {project.manager ? <PersonText person={project.manager} /> : t('common.notAvailable')}
        </td>
        <td data-label={t('admin.projects.status')} className={cellClass}>
          {/* A block around the badge: on a phone card the cell is a grid that would stretch it. */}
          <div>
            <StatusBadge status={project.status} />
          </div>
        </td>
        <td className={actionsCellClass}>{actions}</td>
      </tr>
      {expandable && open && (
        <tr id={detailsId}>
          <td colSpan={columnCount} className="bg-slate-50 px-4 py-4">
            {tasks}
          </td>
        </tr>
      )}
    </>
  );
}

function ProjectEditRow({ project, managers, ...result }: EditRowProps & { project: Summary; managers: ManagerOption[] }) {
  const { t } = useTranslation();
  const update = useUpdateProject();
  const formId = `edit-project-${project.id}`;
  const currentManager = managers.some((manager) => manager.id === project.manager?.id) ? String(project.manager?.id) : '';
  const form = useForm<EditInput, unknown, EditOutput>({
    resolver: zodResolver(editSchema),
    defaultValues: {
      name: project.name,
      description: project.description,
      start_date: project.start_date,
      end_date: project.end_date,
      manager: currentManager,
      status: project.status,
    },
  });
  const { errors } = form.formState;
  // Opened before the managers had loaded, the row chooses the project's own once they arrive,
  // unless the admin has chosen meanwhile: else Save would ask for a manager the project has.
  useEffect(() => {
    if (currentManager && !form.getFieldState('manager').isDirty && form.getValues('manager') === '') form.resetField('manager', { defaultValue: currentManager });
  }, [currentManager, form]);

  const confirmCompletion = useConfirm({ title: t('account.completeProjectTitle'), confirmLabel: t('account.completeProjectConfirm'), cancelLabel: t('action.cancel') });
  // Completing a project with unfinished work: the server says how much, and that nothing is approved (409); asked, the admin confirms or keeps editing.
  const save = async (input: EditOutput) => {
    try {
      return await update.mutateAsync({ id: project.id, input });
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409) || !(await confirmCompletion.ask(<ProjectOpenWork projectId={project.id} detail={error.detail} />))) throw error;
      return update.mutateAsync({ id: project.id, input: { ...input, confirm_open_work: true } });
    }
  };
  const onSubmit = useRowSave({
    form,
    fields: EDIT_FIELDS,
    save,
    successText: t('admin.projects.updated'),
    failure: FAILURE.update,
    ...result,
  });

  // One cell for the six fields, labelled and laid out in a grid (as the user edit row): the row
  // keeps the table's width at 1280 px, so nothing scrolls sideways or sits under Save and Cancel.
  // The zero-width box that fills its cell keeps the controls from widening the table.
  const field = { form: formId };
  return (
    <EditingRow onCancel={() => result.onClose()}>
      <td colSpan={6} className={wrapCellClass}>
        {confirmCompletion.dialog}
        <div className="w-0 min-w-full">
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3 [&>*]:min-w-0">
            <TextField {...field} label={t('admin.projects.name')} autoFocus error={errors.name?.message} {...form.register('name')} />
            <TextField {...field} label={t('admin.projects.description')} error={errors.description?.message} {...form.register('description')} />
            <SelectField {...field} label={t('admin.projects.manager')} error={errors.manager?.message} {...form.register('manager')}>
              <option value="">{t('admin.projects.selectManager')}</option>
              {managers.map((manager) => (
                <option key={manager.id} value={manager.id}>
                  {personLabel(manager)}
                </option>
              ))}
            </SelectField>
            <TextField {...field} label={t('admin.projects.startDate')} type="date" error={errors.start_date?.message} {...form.register('start_date')} />
            <TextField {...field} label={t('admin.projects.endDate')} type="date" error={errors.end_date?.message} {...form.register('end_date')} />
            <SelectField {...field} label={t('admin.projects.status')} error={errors.status?.message} {...form.register('status')}>
              {PROJECT_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {t(`status.${status}`)}
                </option>
              ))}
            </SelectField>
          </div>
        </div>
      </td>
      <EditActionsCell subject={project.name} formId={formId} busy={form.formState.isSubmitting} onCancel={() => result.onClose()} onSubmit={onSubmit} />
    </EditingRow>
  );
}
