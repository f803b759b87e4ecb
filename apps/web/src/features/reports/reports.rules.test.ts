import { describe, expect, it } from 'vitest';
import { appraisalFailureKey } from './reports.rules';

describe('team appraisal failures', () => {
  it('names the missing endpoint whatever the filter', () => {
    expect(appraisalFailureKey(404, false)).toBe('team.endpointNotFound');
    expect(appraisalFailureKey(404, true)).toBe('team.endpointNotFound');
  });
  it('says access is denied, for filtered data when a range was asked for', () => {
    expect(appraisalFailureKey(403, false)).toBe('team.accessDenied');
    expect(appraisalFailureKey(403, true)).toBe('team.accessDeniedFiltered');
  });
  it('falls back to a load or filter failure', () => {
    expect(appraisalFailureKey(500, false)).toBe('team.loadFailed');
    expect(appraisalFailureKey(undefined, true)).toBe('team.filterFailed');
  });
});
