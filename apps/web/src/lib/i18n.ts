import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

// Each area keeps its own English file (locales/en/<area>.json); together they are one flat namespace.
const englishFiles = import.meta.glob<{ default: Record<string, string> }>('../locales/en/*.json', { eager: true });
const english = Object.assign({}, ...Object.values(englishFiles).map((file) => file.default));

// Keys are flat and may contain "." and ":" (some are the spec's own sentences), so no separators.
void i18n.use(initReactI18next).init({
  resources: { en: { translation: english } },
  lng: 'en',
  fallbackLng: 'en',
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnEmptyString: false,
  showSupportNotice: false,
});

export default i18n;
