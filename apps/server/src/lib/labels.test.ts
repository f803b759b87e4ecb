import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, PRIORITIES, PROJECT_STATUSES, ROLES, SUBTASK_STATUSES, t, type MessageKey } from '@siteboard/shared';
import { PRIORITY_LABEL, PROJECT_STATUS_LABEL, ROLE_LABEL, SUBTASK_STATUS_LABEL } from './labels';

/** The screens' words in one language (the web app's common catalog). */
const screens = (language: string) => JSON.parse(readFileSync(fileURLToPath(new URL(`../../../web/src/locales/${language}/common.json`, import.meta.url)), 'utf8')) as Record<string, string>;

describe('labels of codes in files', () => {
  it.each(LANGUAGES)('say in %s what the screens say', (language) => {
    const words = screens(language);
    const pairs: [string, MessageKey][] = [
      ...SUBTASK_STATUSES.map((status): [string, MessageKey] => [`status.${status}`, SUBTASK_STATUS_LABEL[status]]),
      ...PROJECT_STATUSES.map((status): [string, MessageKey] => [`status.${status}`, PROJECT_STATUS_LABEL[status]]),
      ...PRIORITIES.map((priority): [string, MessageKey] => [`priority.${priority}`, PRIORITY_LABEL[priority]]),
      ...ROLES.map((role): [string, MessageKey] => [`role.${role}`, ROLE_LABEL[role]]),
    ];
    for (const [screenKey, key] of pairs) expect(t(language, key), screenKey).toBe(words[screenKey]);
  });
});
