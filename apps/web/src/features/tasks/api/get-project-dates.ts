import { useQuery } from '@tanstack/react-query';
import type { Project } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

export type ProjectDates = Pick<Project, 'start_date' | 'end_date'>;

export const getProjectDates = async (id: number): Promise<ProjectDates> => {
  const project = await api<Project>(`/api/projects/${id}/`);
  return { start_date: project.start_date, end_date: project.end_date };
};

/**
 * A project's start and end dates, loaded while a form is filled in so that saving can compare a
 * due date with them; null until known (or when they cannot be loaded: the form still saves).
 */
export function useProjectDates(id: number | null): ProjectDates | null {
  const valid = id !== null && Number.isInteger(id) && id > 0;
  const query = useQuery({ queryKey: [...queryRoots.projects, 'dates', id], queryFn: () => getProjectDates(id!), enabled: valid, staleTime: 60_000 });
  return valid ? (query.data ?? null) : null;
}
