import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { failureDetail } from './failure-message';
import i18n, { setLanguage } from './i18n';

describe('the words a failure is told in', () => {
  afterAll(() => i18n.changeLanguage('en'));

  it('says there is no connection, in the page’s language, where the browser’s fetch got no answer', async () => {
    await setLanguage('de', { remember: false });
    for (const browserWords of ['Failed to fetch', 'NetworkError when attempting to fetch resource.', 'Load failed']) {
      expect(failureDetail(new TypeError(browserWords))).toBe('keine Verbindung. Versuchen Sie es erneut, wenn Sie Empfang haben.');
    }
    await setLanguage('es', { remember: false });
    expect(failureDetail(new TypeError('Failed to fetch'))).toBe('no hay conexión. Vuelve a intentarlo cuando tengas señal.');
  });

  it('keeps the server’s own words, and any other error’s', async () => {
    await setLanguage('de', { remember: false });
    expect(failureDetail(new ApiError(409, "Dieses Bautagebuch ist unterschrieben.", undefined, null))).toBe('Dieses Bautagebuch ist unterschrieben.');
    expect(failureDetail(new Error('Quota exceeded'))).toBe('Quota exceeded');
    // A fetch the page made wrongly is no lost connection.
    expect(failureDetail(new TypeError("Failed to execute 'fetch' on 'Window': Invalid value"))).toBe("Failed to execute 'fetch' on 'Window': Invalid value");
  });
});
