import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { A11y, Autoplay, Pagination } from 'swiper/modules';
import { Swiper, SwiperSlide } from 'swiper/react';
import type { Swiper as SwiperInstance } from 'swiper';
import 'swiper/css';
import 'swiper/css/pagination';
import { carouselTiming } from '../landing.rules';
import { useViewportWidth } from './use-media-query';

const SLIDES = [
  { src: '/images/slide-1.svg', alt: 'landing.slide1' },
  { src: '/images/slide-2.svg', alt: 'landing.slide2' },
  { src: '/images/slide-3.svg', alt: 'landing.slide3' },
  { src: '/images/slide-4.svg', alt: 'landing.slide4' },
] as const;

export function HeroCarousel() {
  const { t } = useTranslation();
  const { autoplayDelayMs, speedMs } = carouselTiming(useViewportWidth());
  const [swiper, setSwiper] = useState<SwiperInstance | null>(null);
  const [paused, setPaused] = useState(false);

  const togglePause = () => {
    if (!swiper) return;
    if (paused) swiper.autoplay.start();
    else swiper.autoplay.stop();
    setPaused(!paused);
  };

  return (
    <div className="relative overflow-hidden rounded-2xl shadow-2xl ring-1 ring-white/10" aria-roledescription="carousel" aria-label={t('landing.carousel')}>
      <Swiper
        // Re-created when the timing changes with the viewport, so the new delay takes effect.
        key={`${autoplayDelayMs}-${speedMs}`}
        modules={[Autoplay, Pagination, A11y]}
        onSwiper={setSwiper}
        loop
        speed={speedMs}
        autoplay={{ delay: autoplayDelayMs, disableOnInteraction: false }}
        pagination={{ clickable: true }}
        className="aspect-video w-full bg-slate-800"
      >
        {SLIDES.map((slide, index) => (
          <SwiperSlide key={slide.src}>
            <img
              src={slide.src}
              alt={t(slide.alt)}
              width={1200}
              height={675}
              loading={index === 0 ? 'eager' : 'lazy'}
              className="h-full w-full object-cover"
              // Spec §2: a failed image is only logged.
              onError={() => console.error(`Landing image failed to load: ${slide.src}`)}
            />
          </SwiperSlide>
        ))}
      </Swiper>
      <button
        type="button"
        onClick={togglePause}
        className="absolute right-3 top-3 z-10 rounded-full bg-slate-900/70 px-3 py-1 text-xs font-semibold text-white hover:bg-slate-900"
      >
        {paused ? t('landing.play') : t('landing.pause')}
      </button>
    </div>
  );
}
