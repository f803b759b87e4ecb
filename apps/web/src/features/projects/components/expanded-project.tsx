import type { ExpandedProject } from '@siteboard/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RetryAlert } from '../../../components/ui/alert';
import { useExpandedProject } from '../api/get-project';

/**
 * An opened project's major tasks and subtasks, fetched when it is opened: a page of projects
 * stays a few kilobytes however much work each project holds, and opening one is one request.
 */
export function ExpandedProjectTasks({ projectId, children }: { projectId: number; children: (project: ExpandedProject) => ReactNode }) {
  const { t } = useTranslation();
  const project = useExpandedProject(projectId);
  if (project.isPending) return <p className="text-sm text-slate-600" role="status">{t('app.loading')}</p>;
  if (project.isError) {
    return (
      <RetryAlert onRetry={() => void project.refetch()} retryLabel={t('common.retry')}>
        {t('projectBoard.loadFailed')}
      </RetryAlert>
    );
  }
  return children(project.data);
}
