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
import { catalogs, type MessageKey } from '@siteboard/shared';
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

/**
 * A word both the server (its catalog: the appraisal PDF, field errors, notifications) and a
 * screen say reads the same in both: a role is "Jefe de obra" on the user list and in the PDF.
 * Every web text whose English is a catalog text is held to the catalog's translation, unless
 * listed here for a reason.
 */
const WEB_WORD_IN_CATALOG: Record<string, MessageKey> = {
  // One task's status: the catalog words it apart from the PDF's count of such tasks.
  'status.completed': 'Completed|status',
  'status.ongoing': 'Ongoing|status',
  'status.pending_approval': 'Pending Approval|status',
  // One subtask of the day's work, completed: a status, as on the daily log's PDF.
  'dailyLog.work.completed': 'Completed|status',
  // A pin's colour on a drawing says its task's status: the words of the task's badge.
  'drawings.colour.completed': 'Completed|status',
  'drawings.colour.pending_approval': 'Pending Approval|status',
  'drawings.colour.closed_unfinished': 'Closed unfinished|status',
};
const NOT_THE_CATALOG_WORD: Record<string, string> = {
  'record.comment.submit': 'a button: the verb "Comment", not the noun',
  'shell.adminBadge': "the shell's narrow badge, an abbreviation",
  'account.overdue': "one task's badge; the catalog's \"Overdue\" labels a count of tasks",
  'drawings.colour.overdue': "one pin's status beside the others' (a pin's name and status, the legend): a badge's word like account.overdue",
};

describe('buttons named for their row', () => {
  // "Edit" on a row is named "Edit ana@example.com" ("fooSubject" beside "foo"): the name holds the
  // words the button shows, so a person who says what they see (voice control) reaches it (WCAG 2.5.3).
  for (const language of LANGUAGES) {
    it(`${language}: each name holds the button's visible words`, () => {
      const mismatches: string[] = [];
      for (const file of englishFiles) {
        const texts = read(language, file);
        for (const [key, name] of Object.entries(texts)) {
          const visible = key.endsWith('Subject') ? texts[key.slice(0, -'Subject'.length)] : undefined;
          if (visible !== undefined && !name.toLowerCase().includes(visible.toLowerCase())) mismatches.push(`${key}: "${name}" lacks "${visible}"`);
        }
      }
      expect(mismatches).toEqual([]);
    });
  }
});

describe('words the server and the screens share', () => {
  const webTexts = (language: string): Record<string, string> => Object.assign({}, ...englishFiles.map((file) => read(language, file)));
  const english = webTexts('en');
  const shared = Object.entries(english).flatMap(([key, text]) => {
    if (key in NOT_THE_CATALOG_WORD) return [];
    const catalogKey = WEB_WORD_IN_CATALOG[key] ?? (text in catalogs.en ? (text as MessageKey) : undefined);
    return catalogKey ? [{ key, catalogKey }] : [];
  });

  it('finds the role names, statuses and labels both say', () => {
    expect(shared.map(({ key }) => key)).toEqual(expect.arrayContaining(['role.admin', 'role.manager', 'role.team_member', 'status.completed', 'status.pending_approval', 'appraisal.overdue', 'record.dueDate']));
  });

  for (const language of LANGUAGES.filter((code) => code !== 'en')) {
    it(`${language}: says them as the server's catalog does`, () => {
      const web = webTexts(language);
      const catalog = catalogs[language];
      const differing = shared.filter(({ key, catalogKey }) => web[key] !== catalog[catalogKey]).map(({ key, catalogKey }) => `${key} "${web[key]}" ≠ "${catalogKey}" "${catalog[catalogKey]}"`);
      expect(differing).toEqual([]);
    });
  }
});

describe('Spanish screens', () => {
  it('speak in one register, tú, as the server does (no usted imperative)', () => {
    const usted = /\b(Elija|Introduzca|Vuelva|Añada|Confirme|Compruebe|Seleccione|Inicie|Escriba|Intente|Revise|Indique|Guarde|Cámbiela|Comunique|usted|Usted|le enviamos|le asignó|No tiene permiso|Reasigne|Envíe|Quite)\b/;
    const spanish = Object.assign({}, ...englishFiles.map((file) => read('es', file))) as Record<string, string>;
    expect(Object.entries(spanish).filter(([, text]) => usted.test(text))).toEqual([]);
  });

  it('speak Mexican Spanish, not Spain’s (record 033): agregar, ingresa, presionado, no vosotros', () => {
    const spainOnly = /(?<!\p{L})(añad\p{L}*|añád\p{L}*|introduce|introduzca|pulsad\p{L}*|pulsa|ordenador|móvil|fichero|vosotros|os|\p{L}+áis|\p{L}+éis)(?!\p{L})/iu;
    const spanish = Object.assign({}, ...englishFiles.map((file) => read('es', file))) as Record<string, string>;
    expect(Object.entries(spanish).filter(([, text]) => spainOnly.test(text))).toEqual([]);
  });
});

/**
 * French sets a no-break space before : ; ? ! » and after «: a plain one lets a line start with the
 * mark ("; laissez…"), none at all is English ("Motif: …").
 */
const BREAKABLE_FRENCH_SPACE = / [:;?!»]|« |[^\s\u00a0\u202f]:(\s|$)/;

describe('French screens', () => {
  it('set a no-break space before : ; ? ! and inside « »', () => {
    const french = Object.assign({}, ...englishFiles.map((file) => read('fr', file))) as Record<string, string>;
    expect(Object.entries(french).filter(([, text]) => BREAKABLE_FRENCH_SPACE.test(text))).toEqual([]);
  });

  it('and the server says so too', () => {
    expect(Object.entries(catalogs.fr).filter(([, text]) => BREAKABLE_FRENCH_SPACE.test(text))).toEqual([]);
  });

  it('write the apostrophe as ’ everywhere, never a straight one beside it on the same screen', () => {
    const french = Object.assign({}, ...englishFiles.map((file) => read('fr', file))) as Record<string, string>;
    expect(Object.entries(french).filter(([, text]) => text.includes("'"))).toEqual([]);
    expect(Object.entries(catalogs.fr).filter(([, text]) => String(text).includes("'"))).toEqual([]);
  });
});
