import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from './app/provider';
import { preloadRoute } from './app/app-routes';
import { AppRouter } from './app/router';
import './index.css';
import i18n, { i18nReady, initialLanguage } from './lib/i18n';

const start = () => {
  const root = createRoot(document.getElementById('root')!);
  // A transition, so React renders the first screen in short slices rather than one long task
  // (decision record 036); it still appears at once, whole.
  startTransition(() =>
    root.render(
      <StrictMode>
        <AppProvider>
          <AppRouter />
        </AppProvider>
      </StrictMode>,
    ),
  );
};

// The first screen draws once its route's code is here (index.html's route-preload script fetched it
// beside this entry), so that React draws it at once instead of a loading screen first, and in the
// reader's language: at once when that is already here (English), else once its files arrive. The
// HTML's loading state shows meanwhile. A route whose code fails to load draws its error screen.
const routed = preloadRoute(window.location.pathname).catch(() => undefined);
const translated = i18n.hasResourceBundle(initialLanguage(), 'translation') ? undefined : i18nReady;
void Promise.all([routed, translated]).then(start);
