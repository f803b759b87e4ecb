import { PROJECT_STATUSES, isOngoingStatus, type ProjectStatus } from '@siteboard/shared';

export type ProjectTab = 'ongoing' | 'completed';

/** The statuses a tab asks the server for: planned projects sit under "Ongoing Projects" (spec §3). */
export const statusesOf = (tab: ProjectTab): ProjectStatus[] => PROJECT_STATUSES.filter((status) => isOngoingStatus(status) === (tab === 'ongoing'));
