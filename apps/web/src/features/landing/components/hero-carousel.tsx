import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { carouselTiming } from '../landing.rules';
import { useMediaQuery, useViewportWidth } from '../../../lib/use-media-query';

const SLIDES = [
  { src: '/images/slide-1.svg', alt: 'landing.slide1' },
  { src: '/images/slide-2.svg', alt: 'landing.slide2' },
  { src: '/images/slide-3.svg', alt: 'landing.slide3' },
  { src: '/images/slide-4.svg', alt: 'landing.slide4' },
] as const;

const SWIPE_THRESHOLD_PX = 40;

/**
 * Four slides that turn by themselves with the spec's timings (not under reduced motion, until the
 * reader presses Play). A CSS transform track rather than
 * a carousel library: the landing page's whole JavaScript budget is 150 KB, and this needs
 * only autoplay, dots, swipe and pause.
 */
export function HeroCarousel() {
  const { t } = useTranslation();
  const { autoplayDelayMs, speedMs } = carouselTiming(useViewportWidth());
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const [active, setActive] = useState(0);
  // Under reduced motion the slides wait for the reader (dots, swipe, Play) until they press Play.
  const [pausedByReader, setPausedByReader] = useState<boolean | null>(null);
  const paused = pausedByReader ?? reducedMotion;
  const swipeStart = useRef<number | null>(null);

  const show = (index: number) => setActive((index + SLIDES.length) % SLIDES.length);

  useEffect(() => {
    if (paused) return;
    const timer = window.setTimeout(() => setActive((current) => (current + 1) % SLIDES.length), autoplayDelayMs);
    return () => window.clearTimeout(timer);
  }, [active, paused, autoplayDelayMs]);

  return (
    <div
      className="relative overflow-hidden rounded-2xl bg-slate-800 shadow-2xl ring-1 ring-white/10"
      role="region"
      aria-roledescription="carousel"
      aria-label={t('landing.carousel')}
      onPointerDown={(event) => (swipeStart.current = event.clientX)}
      onPointerUp={(event) => {
        const distance = swipeStart.current === null ? 0 : event.clientX - swipeStart.current;
        swipeStart.current = null;
        if (Math.abs(distance) > SWIPE_THRESHOLD_PX) show(active + (distance < 0 ? 1 : -1));
      }}
    >
      <div
        className="flex aspect-video w-full touch-pan-y"
        style={{ transform: `translateX(-${active * 100}%)`, transition: reducedMotion ? 'none' : `transform ${speedMs}ms ease-in-out` }}
      >
        {SLIDES.map((slide, index) => (
          <div
            key={slide.src}
            className="h-full w-full shrink-0"
            role="group"
            aria-roledescription="slide"
            aria-label={`${index + 1} / ${SLIDES.length}`}
            aria-hidden={index !== active}
            data-testid="carousel-slide"
            data-active={index === active}
          >
            <img
              src={slide.src}
              alt={t(slide.alt)}
              width={1200}
              height={675}
              draggable={false}
              loading={index === 0 ? 'eager' : 'lazy'}
              className="h-full w-full select-none object-cover"
              // Spec §2: a failed image is only logged.
              onError={() => console.error(`Landing image failed to load: ${slide.src}`)}
            />
          </div>
        ))}
      </div>
      <div className="absolute inset-x-0 bottom-3 flex justify-center gap-2">
        {SLIDES.map((slide, index) => (
          <button
            key={slide.src}
            type="button"
            aria-label={t('landing.goToSlide', { number: index + 1 })}
            aria-current={index === active}
            onClick={() => show(index)}
            className={`h-2.5 rounded-full transition-all ${index === active ? 'w-6 bg-white' : 'w-2.5 bg-white/60 hover:bg-white/80'}`}
          />
        ))}
      </div>
      <button
        type="button"
        onClick={() => setPausedByReader(!paused)}
        className="absolute right-3 top-3 z-10 rounded-full bg-slate-900/70 px-3 py-1 text-xs font-semibold text-white hover:bg-slate-900"
      >
        {paused ? t('landing.play') : t('landing.pause')}
      </button>
    </div>
  );
}
