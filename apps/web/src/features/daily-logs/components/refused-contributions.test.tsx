import { describe, expect, it } from 'vitest';
import { contributionOf } from './refused-contributions';

describe('what a waiting write adds to a daily log', () => {
  it('reads the log, the part and the day it was for: its log’s day, or the day a moved photo keeps', () => {
    expect(contributionOf('/api/projects/7/daily-logs/2026-11-29/entries/')).toEqual({ projectId: 7, logDate: '2026-11-29', part: 'entries', forDate: '2026-11-29' });
    expect(contributionOf('/api/projects/7/daily-logs/2026-11-29/attachments/')).toEqual({ projectId: 7, logDate: '2026-11-29', part: 'attachments', forDate: '2026-11-29' });
    // Moved to the 29th's log from the 27th's, and refused there too: moved on, it is still the 27th's.
    expect(contributionOf('/api/projects/7/daily-logs/2026-11-29/attachments/?for_date=2026-11-27')).toEqual({ projectId: 7, logDate: '2026-11-29', part: 'attachments', forDate: '2026-11-27' });
    expect(contributionOf('/api/projects/7/daily-logs/2026-11-29/sign/')).toBeUndefined();
    expect(contributionOf('/api/projects/7/daily-logs/2026-11-29/attachments/?for_date=soon')).toBeUndefined();
  });
});
