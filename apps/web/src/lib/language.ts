import type { User } from '@siteboard/shared';
import { api, ApiError } from './api-client';
import { deviceLanguage, isLanguage, setLanguage, type Language } from './i18n';
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

/** False when the profile says its language is still the company's, not the person's own choice (`language_chosen`). */
function languageNotChosen(profile: User): boolean {
  return (profile as User & { language_chosen?: unknown }).language_chosen === false;
}

/**
 * After sign-in and on each session start. A language just chosen on this device while signed out
 * (the landing page's menu, then Log In) is what the person asked for: it goes to the profile.
 * A person who never chose one has their company's, set when an admin made their account: the
 * language this device showed them (remembered here, else their browser's) is the better guess.
 * At sign-in it goes to the profile as their choice, for their other devices and the server's
 * texts; at a session start it is only shown (the sign-in's save failed: nothing is sent behind the
 * person's back). A browser that prefers none the app speaks leaves the company's. Otherwise the
 * profile's language wins over the device's.
 */
export async function settleLanguageWithProfile(profile: User, { signedIn }: { signedIn: boolean }): Promise<void> {
  const chosenSignedOut = localStorage.getItem(STORAGE_KEYS.languageUnsynced) === '1';
  const stored = localStorage.getItem(STORAGE_KEYS.language);
  // Until an admin-set password is replaced the server takes no change of the profile: what goes to
  // it waits on this device for the gate to open (auth.tsx's refreshProfile settles again then).
  const gated = profile.must_change_password === true;
  if (signedIn && chosenSignedOut && isLanguage(stored)) {
    if (gated) return setLanguage(stored);
    localStorage.removeItem(STORAGE_KEYS.languageUnsynced);
    if (profileLanguage(profile) !== stored || languageNotChosen(profile)) await saveToProfile(stored);
    return;
  }
  const fromDevice = languageNotChosen(profile) ? deviceLanguage() : null;
  if (fromDevice) {
    await setLanguage(fromDevice);
    if (signedIn && !gated) await saveToProfile(fromDevice);
    return;
  }
  const fromProfile = profileLanguage(profile);
  if (fromProfile) await setLanguage(fromProfile);
}
