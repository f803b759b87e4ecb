import { LANGUAGES, nativeLanguageName } from '../../lib/i18n';

/** The four languages as a select's options, each named in itself ("Français") so that its speaker finds it. */
export function LanguageOptions() {
  return LANGUAGES.map((language) => (
    <option key={language} value={language} lang={language}>
      {nativeLanguageName(language)}
    </option>
  ));
}
