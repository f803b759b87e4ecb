import { describe, expect, it } from 'vitest';
import { numberOrNull } from './daily-logs.rules';

describe('a number typed into the daily log', () => {
  it('reads a point or a comma before the decimals, blank as nothing', () => {
    expect(numberOrNull('7,5')).toBe(7.5);
    expect(numberOrNull(' 7.5 ')).toBe(7.5);
    expect(numberOrNull('-2,5')).toBe(-2.5);
    expect(numberOrNull('8')).toBe(8);
    expect(numberOrNull(',5')).toBe(0.5);
    expect(numberOrNull('')).toBeNull();
    expect(numberOrNull(null)).toBeNull();
  });

  it('refuses what it cannot read for sure: grouped thousands ("1.000" is 1,000 in German, 1 in English), two marks, words', () => {
    for (const typed of ['1.000', '1,000', '12.500', '1.234,5', '7,5,5', 'acht', '7 h']) expect(numberOrNull(typed), typed).toBeNaN();
  });
});
