import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Subtask } from '@siteboard/shared';
import { api } from '../../../lib/api-client';

/** Subtasks not completed and due today in the company's time zone. */
export const getTasksDueToday = () => api<Subtask[]>('/api/tasks-due-today/');

export const getTasksDueTodayQueryOptions = () => queryOptions({ queryKey: ['tasks-due-today'], queryFn: getTasksDueToday });

export const useTasksDueToday = () => useQuery(getTasksDueTodayQueryOptions());
