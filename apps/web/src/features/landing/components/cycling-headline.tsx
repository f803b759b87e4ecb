import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HEADLINE_PHASE_MS, headlinePhase } from '../landing.rules';
import { useMediaQuery } from '../../../lib/use-media-query';

const PART_KEYS = ['landing.headline.plan', 'landing.headline.build', 'landing.headline.lead'] as const;

/** The headline builds itself phrase by phrase; with reduced motion it simply stands. */
export function CyclingHeadline() {
  const { t } = useTranslation();
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const [phase, setPhase] = useState(0);

  useEffect(() => {
    if (reducedMotion) return;
    const timer = window.setTimeout(() => setPhase((current) => (current + 1) % HEADLINE_PHASE_MS.length), HEADLINE_PHASE_MS[phase]);
    return () => window.clearTimeout(timer);
  }, [phase, reducedMotion]);

  const { visibleParts, fading } = reducedMotion ? { visibleParts: PART_KEYS.length, fading: false } : headlinePhase(phase);
  return (
    <h1 className="text-4xl font-extrabold leading-tight tracking-tight text-white sm:text-5xl lg:text-6xl">
      {/* Screen readers get the whole sentence once, not every animation step. */}
      <span className="sr-only">{t('landing.headline')}</span>
      <span aria-hidden className={`block min-h-[3.6em] transition-opacity duration-300 sm:min-h-[2.4em] ${fading ? 'opacity-0' : 'opacity-100'}`}>
        {PART_KEYS.map((key, index) => (
          <span
            key={key}
            data-testid="headline-part"
            className={`mr-3 inline-block transition-all duration-300 ${index < visibleParts ? 'translate-y-0 opacity-100' : 'translate-y-2 opacity-0'} ${index === 2 ? 'text-brand-500' : ''}`}
          >
            {t(key)}
          </span>
        ))}
      </span>
    </h1>
  );
}
