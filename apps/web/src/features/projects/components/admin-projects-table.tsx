import { Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Project } from '@siteboard/shared';
import { StatusBadge } from '../../../components/ui/badges';
import { Chevron } from '../../../components/ui/chevron';
import { FeedbackAlert, useRowEditing, ViewActions } from '../../../components/ui/editable-rows';
import { PersonText } from '../../../components/ui/person-text';
import { ShowMore } from '../../../components/ui/show-more';
import { actionsCellClass, cellClass, Table, wrapCellClass } from '../../../components/ui/table';
import { formatDate } from '../../../lib/format';
import type { PagedList } from '../../../lib/lists';
import { loadOnApproach, preloadableLazy } from '../../../lib/preloadable-lazy';
import { useDeleteProject } from '../api/delete-project';
import { AdminProjectTasks } from './admin-project-tasks';
import { ExpandedProjectTasks } from './expanded-project';
import type { ManagerOption } from './manager-option';

// The edit row (its form, zod validation and the schemas) loads when a row's actions are first
// pointed at or focused, or at the first Edit: the tables draw without it (decision record 095).
const { Component: ProjectEditRow, load: loadEditRow } = preloadableLazy(() => import('./project-edit-row').then((module) => module.ProjectEditRow));

/** Spec §8: a project that is gone, a refusal, else "Failed to delete project: " and the server's words. */
const DELETE_FAILURE = { notFound: 'admin.projects.notFound', forbidden: 'admin.projects.forbiddenDelete', other: 'admin.projects.deleteFailed' };

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
    tasks: kind === 'ongoing' ? <ExpandedProjectTasks projectId={project.id}>{(majorTasks) => <AdminProjectTasks project={project} majorTasks={majorTasks} />}</ExpandedProjectTasks> : undefined,
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
        {entries.map(({ project, tasks }) => {
          const view = (
            <ProjectRow
              key={project.id}
              project={project}
              tasks={tasks}
              open={expanded.has(project.id)}
              onToggle={() => toggle(project.id)}
              columns={columns}
              actions={
                <div {...loadOnApproach(loadEditRow)}>
                  <ViewActions
                    subject={project.name}
                    busy={deleteProject.isPending && deleteProject.variables === project.id}
                    focusEdit={rows.lastEditedId === project.id}
                    onEdit={() => rows.startEdit(project.id)}
                    onDelete={() => rows.run(() => deleteProject.mutateAsync(project.id), t('admin.projects.deleted'), DELETE_FAILURE)}
                    deleteTitle={t('admin.projects.deleteTitle')}
                    deleteDescription={t('admin.projects.deleteDescription', { name: project.name })}
                  />
                </div>
              }
            />
          );
          return rows.editingId === project.id ? (
            // Until the edit row has loaded (fetched when the row's actions were pointed at), the row stays as it was.
            <Suspense key={project.id} fallback={view}>
              <ProjectEditRow project={project} managers={managers} onClose={rows.finishEdit} onFailure={rows.fail} />
            </Suspense>
          ) : (
            view
          );
        })}
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
  columns,
  actions,
}: {
  project: Summary;
  tasks: ReactNode;
  open: boolean;
  onToggle: () => void;
  /** The table's column names, translated once for all rows (each cell carries its own for the phone's stacked cards). */
  columns: string[];
  actions: ReactNode;
}) {
  const { t } = useTranslation();
  const [, descriptionLabel, startLabel, endLabel, managerLabel, statusLabel] = columns;
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
        <td data-label={descriptionLabel} className={`${wrapCellClass} min-w-32`}>
          {project.description || t('common.notAvailable')}
        </td>
        <td data-label={startLabel} className={cellClass}>
          {formatDate(project.start_date)}
        </td>
        <td data-label={endLabel} className={cellClass}>
          {formatDate(project.end_date)}
        </td>
        {/* Room for a name and a usual address on one line each (the address ends in "…" past it). */}
        <td data-label={managerLabel} className={`${wrapCellClass} min-w-48`}>
          {project.manager ? <PersonText person={project.manager} keepShortEmailWhole truncateEmail /> : t('common.notAvailable')}
        </td>
        <td data-label={statusLabel} className={cellClass}>
          {/* A block around the badge: on a phone card the cell is a grid that would stretch it. */}
          <div>
            <StatusBadge status={project.status} />
          </div>
        </td>
        <td className={actionsCellClass}>{actions}</td>
      </tr>
      {expandable && open && (
        <tr id={detailsId}>
          <td colSpan={columns.length + 1} className="bg-slate-50 px-4 py-4">
            {tasks}
          </td>
        </tr>
      )}
    </>
  );
}
