import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Subtask, SubtaskStatus } from '@siteboard/shared';
import { api } from '../../../lib/api-client';

export type SubtaskFilter = {
  assigned_to?: 'me' | number;
  status?: SubtaskStatus;
  /** A comma list of project statuses, e.g. `ongoing,planned`. */
  project_status?: string;
};

export const getSubtasks = (filter: SubtaskFilter = {}) => api<Subtask[]>('/api/subtasks/', { query: filter });

/** Keys match partially, so the key without a filter (`['subtasks', {}]`) covers every filtered list. */
export const getSubtasksQueryOptions = (filter: SubtaskFilter = {}) => queryOptions({ queryKey: ['subtasks', filter], queryFn: () => getSubtasks(filter) });

export const useSubtasks = (filter: SubtaskFilter = {}) => useQuery(getSubtasksQueryOptions(filter));
