// Without zod, so that a screen needing only the statuses loads no schema library (decision record 036).
export const PROJECT_STATUSES = ['planned', 'ongoing', 'completed'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

/** Planned projects count as ongoing everywhere the spec splits ongoing from completed. */
export const isOngoingStatus = (status: ProjectStatus) => status !== 'completed';
