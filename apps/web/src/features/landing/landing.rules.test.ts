import { describe, expect, it } from 'vitest';
import { carouselTiming, HEADLINE_PHASE_MS, headlinePhase } from './landing.rules';

describe('carousel timing', () => {
  it('uses 3500 ms autoplay and 400 ms speed on wide screens', () => {
    expect(carouselTiming(1280)).toEqual({ autoplayDelayMs: 3500, speedMs: 400 });
  });
  it('slows autoplay to 4000 ms at 640 px and below', () => {
    expect(carouselTiming(641).autoplayDelayMs).toBe(3500);
    expect(carouselTiming(640).autoplayDelayMs).toBe(4000);
    expect(carouselTiming(600)).toEqual({ autoplayDelayMs: 4000, speedMs: 400 });
  });
  it('speeds transitions to 350 ms at 480 px and below', () => {
    expect(carouselTiming(481).speedMs).toBe(400);
    expect(carouselTiming(480)).toEqual({ autoplayDelayMs: 4000, speedMs: 350 });
  });
});

describe('headline phases', () => {
  it('has the six timings of the spec', () => {
    expect(HEADLINE_PHASE_MS).toEqual([400, 900, 900, 1200, 400, 400]);
  });
  it('reveals the parts one by one, holds, fades and repeats', () => {
    expect([0, 1, 2, 3, 4, 5].map((phase) => headlinePhase(phase).visibleParts)).toEqual([1, 2, 3, 3, 3, 0]);
    expect(headlinePhase(4).fading).toBe(true);
    expect(headlinePhase(6)).toEqual(headlinePhase(0));
  });
});
