import { usePagedList } from '../../../lib/lists';
import { queryRoots } from '../../../lib/query-keys';
import { subtaskListPages } from './get-subtasks';

export const tasksDueTodayQueryKey = queryRoots.tasksDueToday;

/** Subtasks not completed and due today in the company's time zone, a page at a time. */
export const getTasksDueTodayPagesQuery = () => subtaskListPages([...tasksDueTodayQueryKey, 'pages'], '/api/tasks-due-today/');

export const useTasksDueTodayPages = () => usePagedList(getTasksDueTodayPagesQuery());
