/** Kept free of zod so that screens needing only the role names (the session, the landing page) do not load the schemas. */
export const ROLES = ['admin', 'manager', 'team_member'] as const;
export type Role = (typeof ROLES)[number];

/** The roles an admin may give a new user or an invitation (there is one admin per company). */
export const ASSIGNABLE_ROLES = ['manager', 'team_member'] as const;
