import type { User } from '@siteboard/shared';
import { api, ApiError } from './api-client';
import { isLanguage, setLanguage, type Language } from './i18n';
import { STORAGE_KEYS, storage } from './storage';

/** The profile's language, when the server sends one (`language` on GET /api/profile/). */
function profileLanguage(profile: User): Language | null {
  const language = (profile as User & { language?: unknown }).language;
  return isLanguage(language) ? language : null;
}

/** Stores the language on the signed-in user's profile; a server without the field (404/405) leaves the device's choice alone. */
async function saveToProfile(language: Language): Promise<User | null> {
  try {
    const profile = await api<User>('/api/profile/', { method: 'PATCH', body: { language } });
    if (profile && typeof profile.id === 'number') storage.writeUser(profile);
    return profile ?? null;
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

/**
 * A person picks a language from a menu: the app switches at once, the device remembers it, and
 * a signed-in person's profile keeps it for their other devices (and for what the server sends them).
 */
export async function chooseLanguage(language: Language): Promise<void> {
  await setLanguage(language);
  if (!storage.token) {
    localStorage.setItem(STORAGE_KEYS.languageUnsynced, '1');
    return;
  }
  localStorage.removeItem(STORAGE_KEYS.languageUnsynced);
  await saveToProfile(language);
}

/**
 * After sign-in and on each session start. A language just chosen on this device while signed out
 * (the landing page's menu, then Log In) is what the person asked for: it goes to the profile.
 * Otherwise the profile's language wins over the device's.
 */
export async function settleLanguageWithProfile(profile: User, { signedIn }: { signedIn: boolean }): Promise<void> {
  const chosenSignedOut = localStorage.getItem(STORAGE_KEYS.languageUnsynced) === '1';
  const stored = localStorage.getItem(STORAGE_KEYS.language);
  if (signedIn && chosenSignedOut && isLanguage(stored)) {
    localStorage.removeItem(STORAGE_KEYS.languageUnsynced);
    if (profileLanguage(profile) !== stored) await saveToProfile(stored);
    return;
  }
  const fromProfile = profileLanguage(profile);
  if (fromProfile) await setLanguage(fromProfile);
}
