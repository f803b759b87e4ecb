import type { MajorTaskSummary } from '@siteboard/shared';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ListLoadFailed } from '../../../components/ui/alert';
import { SearchBox } from '../../../components/ui/search-box';
import { ShowMore } from '../../../components/ui/show-more';
import { useDebouncedValue } from '../../../lib/lists';
import { MAJOR_TASK_PAGE_SIZE, useProjectMajorTaskPages } from '../api/get-project-major-tasks';

/**
 * An opened project's major tasks, fetched when it is opened, a page at a time with their subtasks
 * counted: a page of projects stays a few kilobytes however much work each project holds, and so
 * does opening one (its whole tree was 1.75 MB for 2,255 subtasks). A project with more major tasks
 * than a page gets a search box.
 */
export function ExpandedProjectTasks({ projectId, children }: { projectId: number; children: (majorTasks: MajorTaskSummary[]) => ReactNode }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const settled = useDebouncedValue(search.trim());
  const list = useProjectMajorTaskPages(projectId, settled);
  if (list.query.isPending) return <p className="text-sm text-slate-600" role="status">{t('app.loading')}</p>;
  if (list.query.isError) {
    return (
      <ListLoadFailed onRetry={() => void list.query.refetch()} />
    );
  }
  const searchable = search !== '' || (list.total ?? 0) > MAJOR_TASK_PAGE_SIZE;
  return (
    <div className="space-y-3">
      {searchable && <SearchBox className="sm:w-80" label={t('projectBoard.searchMajorTasks')} placeholder={t('projectBoard.searchMajorTasksPlaceholder')} value={search} onChange={setSearch} />}
      {settled !== '' && list.items.length === 0 ? <p className="px-1 py-2 text-sm text-slate-600">{t('projectBoard.noMatchingMajorTasks')}</p> : children(list.items)}
      <ShowMore list={list} />
    </div>
  );
}
