/** Kept free of zod so that screens needing only the role names (the session, the landing page) do not load the schemas. */
export const ROLES = ['admin', 'manager', 'team_member'] as const;
export type Role = (typeof ROLES)[number];
