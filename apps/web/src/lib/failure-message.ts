import type { TFunction } from 'i18next';
import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from './api-client';
import i18n from './i18n';
import { useAuth } from './auth';

/** i18n keys of one action's messages (spec §8); `other` receives the server's `{{detail}}`. */
export interface FailureTexts {
  notFound?: string;
  forbidden?: string;
  other: string;
}

/**
 * No answer at all: the browser's fetch failed ("Failed to fetch", "NetworkError when attempting
 * to fetch resource.", Safari's "Load failed"), its words in English whatever the page's language.
 */
const NO_CONNECTION = new Set(['Failed to fetch', 'NetworkError when attempting to fetch resource.', 'Load failed']);
const isNoConnection = (error: unknown) => error instanceof TypeError && NO_CONNECTION.has(error.message);

/** The words the server or the browser gave for a failure; no connection, in the page's language. */
export function failureDetail(error: unknown): string {
  if (error instanceof ApiError) return error.detail;
  if (isNoConnection(error)) return i18n.t('failure.noConnection');
  return error instanceof Error ? error.message : String(error);
}

const isUnauthorized = (error: unknown) => error instanceof ApiError && error.status === 401;

function describeFailure(t: TFunction, error: unknown, texts: FailureTexts): string {
  const status = error instanceof ApiError ? error.status : undefined;
  if (status === 401) return t('failure.authFailed');
  if (status === 404 && texts.notFound) return t(texts.notFound);
  if (status === 403 && texts.forbidden) return t(texts.forbidden);
  return t(texts.other, { detail: failureDetail(error) });
}

/**
 * For a failed change: the spec's message for it. A 401 that reaches a screen means the refresh
 * did not save the session, so the person is logged out too. A 404's "refreshing" needs nothing
 * here: every mutation invalidates its list when it settles.
 */
export function useFailureMessage() {
  const { t } = useTranslation();
  const { logout } = useAuth();
  return useCallback(
    (error: unknown, texts: FailureTexts): string => {
      if (isUnauthorized(error)) logout();
      return describeFailure(t, error, texts);
    },
    [logout, t],
  );
}

/** For a failed query: the message to render (or null), and the same logout on a 401, after rendering. */
export function useQueryFailure(error: unknown, texts: FailureTexts): string | null {
  const { t } = useTranslation();
  const { logout } = useAuth();
  const unauthorized = isUnauthorized(error);
  useEffect(() => {
    if (unauthorized) logout();
  }, [logout, unauthorized]);
  return error ? describeFailure(t, error, texts) : null;
}
