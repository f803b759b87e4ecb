import { describe, expect, it } from 'vitest';
import { shownDecisionHours } from './reports';

describe('the median wait for a decision as it reads', () => {
  it('reads a decision made within minutes as under a tenth of an hour, never 0', () => {
    expect(shownDecisionHours(0)).toEqual({ under: true, value: 0.1 });
    expect(shownDecisionHours(0.1)).toEqual({ under: false, value: 0.1 });
    expect(shownDecisionHours(26.3)).toEqual({ under: false, value: 26.3 });
  });
});
