import { PROJECT_STATUSES, isOngoingStatus, type ProjectStatus } from '@siteboard/shared';

/** Spec §9: project lists show 10 until "Show More". */
export const PROJECT_PAGE_SIZE = 10;

export type ProjectTab = 'ongoing' | 'completed';

/** The statuses a tab asks the server for: planned projects sit under "Ongoing Projects" (spec §3). */
export const statusesOf = (tab: ProjectTab): ProjectStatus[] => PROJECT_STATUSES.filter((status) => isOngoingStatus(status) === (tab === 'ongoing'));
