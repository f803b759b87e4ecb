import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button';
import { CyclingHeadline } from '../../features/landing/components/cycling-headline';
import { HeroCarousel } from '../../features/landing/components/hero-carousel';
import { LandingHeader } from '../../features/landing/components/landing-header';
import { WhySection } from '../../features/landing/components/why-section';

export function LandingPage() {
  const { t } = useTranslation();
  return (
    <div className="min-h-screen bg-ink">
      <div className="bg-[radial-gradient(ellipse_at_top_right,rgba(249,115,22,0.25),transparent_55%)]">
        <LandingHeader />
        <main>
          <div className="mx-auto grid max-w-7xl items-center gap-10 px-4 pb-16 pt-6 sm:px-6 lg:grid-cols-2 lg:pb-24 lg:pt-12">
            <div>
              <CyclingHeadline />
              <p className="mt-4 text-lg text-slate-300 sm:text-xl">{t('landing.tagline')}</p>
              <div className="mt-8 flex flex-wrap items-center gap-4">
                <Link to="/company-selection" className={buttonClasses('primary', 'px-6 py-3 text-base')}>
                  {t('nav.logIn')}
                </Link>
                {/* Beside the spec's link, which reads as a way back: a company that is new finds its way in here. */}
                <Link to="/signup" className={buttonClasses('secondary', 'px-6 py-3 text-base')}>
                  {t('companySelection.createCompany')}
                </Link>
                <Link to="/signup" className="font-semibold text-white underline-offset-4 hover:underline">
                  {t('landing.signupLink')}
                </Link>
              </div>
            </div>
            <HeroCarousel />
          </div>
          <WhySection />
        </main>
      </div>
      <footer className="border-t border-white/10 bg-ink py-8 text-center text-sm text-slate-400">{t('landing.footer')}</footer>
    </div>
  );
}
