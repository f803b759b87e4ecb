import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n';
import { fakeMatchMedia, restoreMatchMedia } from '../../../test/media';
import { HeroCarousel } from './hero-carousel';

/** The browser as the reader set it up: does it ask for reduced motion? */
function preferReducedMotion(reduce: boolean) {
  fakeMatchMedia((query) => reduce && query.includes('prefers-reduced-motion: reduce'));
}

const activeSlide = () => screen.getAllByTestId('carousel-slide').findIndex((slide) => slide.dataset.active === 'true');

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  restoreMatchMedia();
});

describe('the landing carousel', () => {
  it('turns to the next slide by itself', () => {
    preferReducedMotion(false);
    render(<HeroCarousel />);
    expect(activeSlide()).toBe(0);
    act(() => vi.advanceTimersByTime(4_000));
    expect(activeSlide()).toBe(1);
  });

  it('stays on its slide under reduced motion until the reader presses Play', () => {
    preferReducedMotion(true);
    render(<HeroCarousel />);
    act(() => vi.advanceTimersByTime(20_000));
    expect(activeSlide()).toBe(0);

    // The dots still turn it by hand.
    fireEvent.click(screen.getByRole('button', { name: /slide 3/i }));
    act(() => vi.advanceTimersByTime(20_000));
    expect(activeSlide()).toBe(2);

    fireEvent.click(screen.getByRole('button', { name: 'Play slideshow' }));
    act(() => vi.advanceTimersByTime(4_000));
    expect(activeSlide()).toBe(3);
  });
});
