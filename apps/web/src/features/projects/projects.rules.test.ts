import { describe, expect, it } from 'vitest';
import { statusesOf } from './projects.rules';

describe('project tabs', () => {
  it('asks for planned projects under Ongoing, and only completed ones under Completed', () => {
    expect(statusesOf('ongoing')).toEqual(['planned', 'ongoing']);
    expect(statusesOf('completed')).toEqual(['completed']);
  });
});
