/** Spec §8: which message a failed team appraisal shows, by status and by whether a date range was asked for. */
export function appraisalFailureKey(status: number | undefined, filtered: boolean): string {
  if (status === 404) return 'team.endpointNotFound';
  if (status === 403) return filtered ? 'team.accessDeniedFiltered' : 'team.accessDenied';
  return filtered ? 'team.filterFailed' : 'team.loadFailed';
}
