import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Project } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

export type ProjectDates = Pick<Project, 'start_date' | 'end_date'>;

export const getProjectDates = async (id: number): Promise<ProjectDates> => {
  const project = await api<Project>(`/api/projects/${id}/`);
  return { start_date: project.start_date, end_date: project.end_date };
};

type Listed = { items?: unknown; pages?: { items?: unknown }[] };

/**
 * The project's dates as a list on this device already has them (the picker it was chosen in, the
 * project browser), with that list's age: the form then needs no call of its own, and a project
 * chosen without a signal has its dates.
 */
function listedDates(queryClient: QueryClient, id: number): { data: ProjectDates; updatedAt: number } | undefined {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: queryRoots.projects })) {
    const data = query.state.data as Listed | undefined;
    const items = [data?.items, ...(data?.pages ?? []).map((page) => page.items)].flatMap((part) => (Array.isArray(part) ? (part as Partial<Project>[]) : []));
    const project = items.find((item) => item.id === id && item.start_date !== undefined && item.end_date !== undefined);
    if (project) return { data: { start_date: project.start_date!, end_date: project.end_date! }, updatedAt: query.state.dataUpdatedAt };
  }
  return undefined;
}

/**
 * A project's start and end dates, loaded while a form is filled in so that saving can compare a
 * due date with them; null until known (or when they cannot be loaded: the form still saves).
 */
export function useProjectDates(id: number | null): ProjectDates | null {
  const queryClient = useQueryClient();
  const valid = id !== null && Number.isInteger(id) && id > 0;
  const query = useQuery({
    queryKey: [...queryRoots.projects, 'dates', id],
    queryFn: () => getProjectDates(id!),
    enabled: valid,
    staleTime: 60_000,
    initialData: () => (valid ? listedDates(queryClient, id)?.data : undefined),
    initialDataUpdatedAt: () => (valid ? listedDates(queryClient, id)?.updatedAt : undefined),
  });
  return valid ? (query.data ?? null) : null;
}
