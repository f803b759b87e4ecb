import { isOngoingStatus, type ProjectStatus } from '@siteboard/shared';

/** Spec §9: project lists show 10 until "Show More". */
export const PROJECT_PAGE_SIZE = 10;

export type ProjectTab = 'ongoing' | 'completed';

/** Planned projects sit under "Ongoing Projects" (spec §3). */
export const tabOf = (status: ProjectStatus): ProjectTab => (isOngoingStatus(status) ? 'ongoing' : 'completed');

/** The projects of a tab whose name holds the search, ignoring case (spec §5). */
export function filterProjects<T extends { name: string; status: ProjectStatus }>(projects: readonly T[], tab: ProjectTab, search: string): T[] {
  const needle = search.trim().toLowerCase();
  return projects.filter((project) => tabOf(project.status) === tab && project.name.toLowerCase().includes(needle));
}

export const countOngoing = (projects: readonly { status: ProjectStatus }[]) => projects.filter((project) => tabOf(project.status) === 'ongoing').length;
