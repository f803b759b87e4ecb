/**
 * Every language says everything English says, and nothing else: the same files, the same keys
 * (plural keys in the forms the language's own plural rules use), the same {{placeholders}}.
 * A missing key would show English in the middle of a German screen; an extra one is a typo
 * or a leftover; a changed placeholder drops a name or a date from the sentence.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../lib/i18n';

const localesDir = path.dirname(fileURLToPath(import.meta.url));
const folders = fs.readdirSync(localesDir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
const read = (language: string, file: string): Record<string, string> => JSON.parse(fs.readFileSync(path.join(localesDir, language, file), 'utf8'));
const englishFiles = fs.readdirSync(path.join(localesDir, 'en')).filter((file) => file.endsWith('.json')).sort();

const PLURAL = /_(zero|one|two|few|many|other)$/;
const placeholders = (text: string) => [...text.matchAll(/{{\s*([^}\s]+)\s*}}/g)].map((match) => match[1]).sort();

/** The keys a language must have for English's keys: a plural English key becomes the language's own plural forms. */
function expectedKeys(english: Record<string, string>, language: string): string[] {
  const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  const keys = new Set<string>();
  for (const key of Object.keys(english)) {
    if (PLURAL.test(key)) for (const category of categories) keys.add(key.replace(PLURAL, `_${category}`));
    else keys.add(key);
  }
  return [...keys].sort();
}

/** The English text a translated key answers to (a plural form maps to English's `_other`). */
const englishFor = (english: Record<string, string>, key: string) => english[key] ?? english[key.replace(PLURAL, '_other')];

describe('locale files', () => {
  it('has a folder for every listed language and lists every folder', () => {
    expect([...folders].sort()).toEqual([...LANGUAGES].sort());
  });

  for (const language of LANGUAGES.filter((code) => code !== 'en')) {
    describe(language, () => {
      it('has the same files as English', () => {
        expect(fs.readdirSync(path.join(localesDir, language)).filter((file) => file.endsWith('.json')).sort()).toEqual(englishFiles);
      });

      for (const file of englishFiles) {
        it(`${file}: the same keys as English`, () => {
          const expected = expectedKeys(read('en', file), language);
          const actual = Object.keys(read(language, file));
          expect(expected.filter((key) => !actual.includes(key)), `keys ${language}/${file} lacks`).toEqual([]);
          expect(actual.filter((key) => !expected.includes(key)), `keys ${language}/${file} has that English lacks`).toEqual([]);
        });

        it(`${file}: the same placeholders as English, and no empty text`, () => {
          const english = read('en', file);
          for (const [key, text] of Object.entries(read(language, file))) {
            const source = englishFor(english, key);
            if (source === undefined) continue;
            expect(text.trim(), `${language}/${file} ${key}`).not.toBe('');
            expect(placeholders(text), `${language}/${file} ${key}`).toEqual(placeholders(source));
          }
        });
      }
    });
  }
});
