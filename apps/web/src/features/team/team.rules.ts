import type { Subtask, TeamMember } from '@siteboard/shared';

export interface WorkloadItem {
  userId: number;
  email: string;
  tasks: string[];
  count: number;
}

/** Each team member with the names of their ongoing subtasks, least loaded first (spec §6). */
export function buildWorkload(members: readonly Pick<TeamMember, 'user'>[], ongoing: readonly Pick<Subtask, 'name' | 'assigned_to_id' | 'status'>[]): WorkloadItem[] {
  const items = members.map((member) => {
    const tasks = ongoing.filter((task) => task.status === 'ongoing' && task.assigned_to_id === member.user.id).map((task) => task.name);
    return { userId: member.user.id, email: member.user.email, tasks, count: tasks.length };
  });
  return items.sort((a, b) => a.count - b.count || a.email.localeCompare(b.email));
}

/** Spec §8: which message a failed team appraisal shows, by status and by whether a date range was asked for. */
export function appraisalFailureKey(status: number | undefined, filtered: boolean): string {
  if (status === 404) return 'team.endpointNotFound';
  if (status === 403) return filtered ? 'team.accessDeniedFiltered' : 'team.accessDenied';
  return filtered ? 'team.filterFailed' : 'team.loadFailed';
}
