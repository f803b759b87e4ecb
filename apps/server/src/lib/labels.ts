import type { MessageKey, Priority, ProjectStatus, Role, SubtaskStatus } from '@siteboard/shared';

/*
 * The words people read for the API's codes, as keys of the server's catalog (packages/shared
 * messages): the same words the screens show for them (the web's common.json `status.*`,
 * `priority.*`, `role.*`; labels.test.ts holds the two catalogs together).
 */

export const SUBTASK_STATUS_LABEL: Record<SubtaskStatus, MessageKey> = { ongoing: 'Ongoing|status', pending_approval: 'Pending Approval|status', completed: 'Completed|status' };

export const PROJECT_STATUS_LABEL: Record<ProjectStatus, MessageKey> = { planned: 'Planned|status', ongoing: 'Ongoing|status', completed: 'Completed|status' };

export const PRIORITY_LABEL: Record<Priority, MessageKey> = { low: 'Low|priority', medium: 'Medium|priority', high: 'High|priority' };

export const ROLE_LABEL: Record<Role, MessageKey> = { admin: 'Admin', manager: 'Manager', team_member: 'Team Member' };

/** A role inside a sentence ("… on SiteBoard as a team member."): the label's capitals and bare noun read wrong there. */
export const AS_ROLE: Record<Role, MessageKey> = { admin: 'as an admin|sentence', manager: 'as a manager|sentence', team_member: 'as a team member|sentence' };

export const YES_NO_LABEL = (value: boolean): MessageKey => (value ? 'Yes' : 'No');

/** A person as people name them: their full name, else their e-mail. */
export const personName = (person: { fullName: string | null; email: string }) => person.fullName ?? person.email;
