import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { translateMessageIn } from '@siteboard/shared';
import { isLanguage, messageCatalog } from './i18n';

/**
 * How a form shows a message, whoever wrote it: one of the web's own i18n keys, or an English
 * message of the shared zod schemas and rules (raised in the browser by a resolver or a
 * `safeParse`), shown in the reader's language from the shared catalog (loaded with the language,
 * lib/i18n.ts). English, a message the server already translated, and a text the catalog does not
 * know show as they came.
 */
export function useMessageText(): (message: string) => string {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  return useCallback(
    (message: string) => {
      if (i18n.exists(message)) return t(message);
      const catalog = isLanguage(language) ? messageCatalog(language) : undefined;
      return catalog ? translateMessageIn(catalog, message) : message;
    },
    [i18n, language, t],
  );
}
