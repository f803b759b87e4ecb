import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from './app/provider';
import { AppRouter } from './app/router';
import './index.css';
import i18n, { i18nReady, initialLanguage } from './lib/i18n';

const start = () =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProvider>
        <AppRouter />
      </AppProvider>
    </StrictMode>,
  );

// The first screen draws in the reader's language: at once when it is already here (English),
// else once its files arrive (the HTML's loading state shows meanwhile).
if (i18n.hasResourceBundle(initialLanguage(), 'translation')) start();
else void i18nReady.then(start);
