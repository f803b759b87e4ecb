import { describe, expect, it } from 'vitest';
import { BACKOFF_MAX_MS, BACKOFF_START_MS, reconnectDelay } from './realtime';

describe('reconnectDelay', () => {
  it('starts at 0.5 s and doubles per attempt, jittered into the upper half', () => {
    expect(reconnectDelay(0, () => 1)).toBe(BACKOFF_START_MS);
    expect(reconnectDelay(0, () => 0)).toBe(BACKOFF_START_MS / 2);
    expect(reconnectDelay(3, () => 1)).toBe(BACKOFF_START_MS * 8);
  });

  it('never waits longer than 30 s', () => {
    expect(reconnectDelay(20, () => 1)).toBe(BACKOFF_MAX_MS);
    expect(reconnectDelay(1000, () => 0.5)).toBeLessThanOrEqual(BACKOFF_MAX_MS);
  });
});
