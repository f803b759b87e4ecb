import type { User } from '@siteboard/shared';
import { api, ApiError } from './api-client';
import { browserLanguage, deviceLanguage, isLanguage, setLanguage, type Language } from './i18n';
import { STORAGE_KEYS, storage } from './storage';

/** The profile's language, when the server sends one (`language` on GET /api/profile/). */
function profileLanguage(profile: User): Language | null {
  const language = (profile as User & { language?: unknown }).language;
  return isLanguage(language) ? language : null;
}

/**
 * Stores the language on the signed-in user's profile. False when it did not reach it (no signal, the
 * server busy): the device then keeps it to send later. A server without the field (404/405) or one
 * that refuses it leaves the device's choice alone and is not asked again.
 */
async function saveToProfile(language: Language): Promise<boolean> {
  try {
    const profile = await api<User>('/api/profile/', { method: 'PATCH', body: { language } });
    if (profile && typeof profile.id === 'number') storage.writeUser(profile);
    return true;
  } catch (error) {
    return error instanceof ApiError && error.status < 500 && error.status !== 429;
  }
}

/**
 * `language_unsynced` on this device: "1" for a language chosen while signed out, whoever signs in
 * next; `user:<id>` for one that belongs to that person and has yet to reach their profile (their
 * password gate was still shut, or the save found no signal). Another person never takes it.
 */
const pendingFor = (profile: User) => `user:${profile.id}`;

/**
 * Sends the device's language to the profile; until it arrives, it stays pending for this person.
 * Arrived, the mark goes only if it is still this one: meanwhile the person may have signed out and
 * someone else picked a language on the landing page.
 */
async function sendPending(profile: User, language: Language): Promise<void> {
  const mark = pendingFor(profile);
  localStorage.setItem(STORAGE_KEYS.languageUnsynced, mark);
  if ((await saveToProfile(language)) && localStorage.getItem(STORAGE_KEYS.languageUnsynced) === mark) localStorage.removeItem(STORAGE_KEYS.languageUnsynced);
}

/**
 * Gives this person's language to their profile: at once, or, while their admin-set password's gate
 * is shut (the server takes no change of the profile then), pending until it opens (auth.tsx's
 * refreshProfile settles again).
 */
async function giveToProfile(profile: User, language: Language): Promise<void> {
  if (profile.must_change_password) localStorage.setItem(STORAGE_KEYS.languageUnsynced, pendingFor(profile));
  else await sendPending(profile, language);
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
  const user = storage.readUser();
  if (!user) await saveToProfile(language);
  else await giveToProfile(user, language);
}

/** False when the profile says its language is still the company's, not the person's own choice (`language_chosen`). */
function languageNotChosen(profile: User): boolean {
  return (profile as User & { language_chosen?: unknown }).language_chosen === false;
}

/**
 * After sign-in and on each session start. A language just chosen on this device while signed out
 * (the landing page's menu, then Log In) is what the person asked for: it goes to the profile.
 * A person who never chose one has their company's, set when an admin made their account: their
 * browser's preferred language is the better guess. At sign-in it goes to the profile as their
 * choice, for their other devices and the server's texts; the language this device remembers is
 * not taken then, for on a shared site tablet it is the previous person's. At a session start the
 * device's language (set at this session's sign-in) is only shown, and one of this person's that
 * has yet to reach their profile goes now. A browser that prefers none the app speaks leaves the
 * company's. Otherwise the profile's language wins over the device's.
 */
export async function settleLanguageWithProfile(profile: User, { signedIn }: { signedIn: boolean }): Promise<void> {
  const flag = localStorage.getItem(STORAGE_KEYS.languageUnsynced);
  const stored = localStorage.getItem(STORAGE_KEYS.language);
  const pending = isLanguage(stored) && ((signedIn && flag === '1') || flag === pendingFor(profile));
  if (flag !== null && !pending && signedIn) localStorage.removeItem(STORAGE_KEYS.languageUnsynced);
  if (pending) {
    await setLanguage(stored);
    // The profile has it already, as its own choice: nothing left to send.
    if (!profile.must_change_password && profileLanguage(profile) === stored && !languageNotChosen(profile)) localStorage.removeItem(STORAGE_KEYS.languageUnsynced);
    else await giveToProfile(profile, stored);
    return;
  }
  const fromDevice = languageNotChosen(profile) ? (signedIn ? browserLanguage() : deviceLanguage()) : null;
  if (fromDevice) {
    await setLanguage(fromDevice);
    if (signedIn) await giveToProfile(profile, fromDevice);
    return;
  }
  const fromProfile = profileLanguage(profile);
  if (fromProfile) await setLanguage(fromProfile);
}
