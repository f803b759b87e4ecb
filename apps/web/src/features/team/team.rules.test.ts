import { describe, expect, it } from 'vitest';
import { appraisalFailureKey, buildWorkload } from './team.rules';

const member = (id: number, email: string) => ({ user: { id, email, company: { id: 1, name: 'C' } } });

describe('team workload', () => {
  it('lists ongoing task names per member, least loaded first', () => {
    const workload = buildWorkload(
      [member(4, 'member1@example.com'), member(5, 'member2@example.com'), member(6, 'member3@example.com')],
      [
        { name: 'Frame walls', assigned_to_id: 4, status: 'ongoing' },
        { name: 'Order trusses', assigned_to_id: 4, status: 'ongoing' },
        { name: 'Fence site', assigned_to_id: 6, status: 'ongoing' },
        { name: 'Joists', assigned_to_id: 6, status: 'pending_approval' },
        { name: 'Someone else', assigned_to_id: 99, status: 'ongoing' },
      ],
    );
    expect(workload).toEqual([
      { userId: 5, email: 'member2@example.com', tasks: [], count: 0 },
      { userId: 6, email: 'member3@example.com', tasks: ['Fence site'], count: 1 },
      { userId: 4, email: 'member1@example.com', tasks: ['Frame walls', 'Order trusses'], count: 2 },
    ]);
  });
  it('breaks ties by e-mail', () => {
    expect(buildWorkload([member(2, 'b@x'), member(1, 'a@x')], []).map((item) => item.email)).toEqual(['a@x', 'b@x']);
  });
});

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
