/** Spec §9: carousel timings by viewport width. */
export function carouselTiming(viewportWidth: number): { autoplayDelayMs: number; speedMs: number } {
  return {
    autoplayDelayMs: viewportWidth <= 640 ? 4000 : 3500,
    speedMs: viewportWidth <= 480 ? 350 : 400,
  };
}

/** Spec §9: how long each headline phase lasts before the next; then it starts again. */
export const HEADLINE_PHASE_MS = [400, 900, 900, 1200, 400, 400] as const;

/**
 * What each phase shows: the three parts of the headline appear one by one, the whole line
 * holds, fades, and is briefly gone before the cycle repeats.
 */
export function headlinePhase(phase: number): { visibleParts: number; fading: boolean } {
  const table = [
    { visibleParts: 1, fading: false },
    { visibleParts: 2, fading: false },
    { visibleParts: 3, fading: false },
    { visibleParts: 3, fading: false },
    { visibleParts: 3, fading: true },
    { visibleParts: 0, fading: false },
  ];
  return table[phase % table.length]!;
}
