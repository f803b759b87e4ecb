import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { en, errorTexts, writtenTexts } from './en';
import { formatWallClock, numericDatePattern } from '../clock';
import { LOCALE_TAGS } from '../locale-tags';
import { catalogs, fill, formatDateOnly, formatNumber, LANGUAGES, negotiateLanguage, placeholdersOf, t, translateMessage } from './index';

const englishKeys = Object.keys(en).sort();

describe('message catalogs', () => {
  it('holds each English text once, as its own key (a `|context` aside)', () => {
    const keys = [...errorTexts, ...writtenTexts];
    expect(new Set(keys).size).toBe(keys.length);
    for (const [key, value] of Object.entries(en)) expect(value).toBe(key.replace(/\|\w+$/, ''));
    expect(t('en', 'Completed|status')).toBe('Completed');
    expect(t('es', 'Completed|status')).toBe('Terminado');
  });

  describe.each(LANGUAGES.filter((language) => language !== 'en'))('%s', (language) => {
    const catalog = catalogs[language] as Record<string, string>;

    it('has every key English has and no other', () => {
      expect(Object.keys(catalog).sort()).toEqual(englishKeys);
    });

    it('keeps the placeholders of every English text', () => {
      const differing = englishKeys.filter((key) => placeholdersOf(catalog[key]!).sort().join() !== placeholdersOf(key).sort().join());
      expect(differing).toEqual([]);
    });

    it('translates every text (none left empty or in English, names and codes aside)', () => {
      const same = englishKeys.filter((key) => !catalog[key]!.trim() || (catalog[key] === key && /[a-z]{4}/.test(key.replace(/\{\w+\}/g, ''))));
      // Words French or Spanish write as English does (the daily log's: Total, Photo, Signature…).
      const alike = ['Description', 'Status', 'Code', 'Name', 'Person', 'Page {page} of {count}', 'Cause', 'Conditions', 'Incident', 'Notes', 'Photo', 'Photos', 'Section', 'Signature', 'Total', 'Details'];
      expect(same.filter((key) => !alike.includes(key))).toEqual([]);
    });
  });

  it('a catalog missing a key or with a different placeholder fails the checks above', () => {
    const broken = { ...catalogs.de } as Record<string, string>;
    delete broken['Not found.'];
    broken['Page {page} of {count}'] = 'Seite {seite} von {count}';
    broken['An extra key'] = 'Ein Schlüssel zu viel';
    expect(Object.keys(broken).sort()).not.toEqual(englishKeys);
    expect(placeholdersOf(broken['Page {page} of {count}']!).sort()).not.toEqual(placeholdersOf('Page {page} of {count}').sort());
  });
});

describe('translateMessage', () => {
  it('answers English texts unchanged in English', () => {
    expect(translateMessage('Due date is required.', 'en')).toBe('Due date is required.');
  });

  it('translates exact texts and texts with values, labels included', () => {
    expect(translateMessage('Not found.', 'es')).toBe('No se encontró.');
    expect(translateMessage('Due date is required.', 'de')).toBe('Fällig am: Angabe erforderlich.');
    expect(translateMessage('Description must be at most 5000 characters.', 'fr')).toBe('Description : 5000 caractères au maximum.');
    expect(translateMessage('limit must be at most 200.', 'es')).toBe('limit debe ser como máximo 200.');
    expect(translateMessage('Too many failed attempts. Try again in 42 seconds.', 'fr')).toBe('Trop de tentatives échouées. Réessayez dans 42 secondes.');
    expect(translateMessage('The request body is not valid: Nothing to update.', 'de')).toBe('Die Anfrage ist ungültig (body): Nichts zu ändern.');
  });

  it('translates every message the shared schemas and rules write (the web shows them as the browser raised them)', () => {
    // Each sentence-like string literal in packages/shared/src/*.ts, a `${constant}` in it taken as a number;
    // those that begin with a parameter's name too ("expand must be major_tasks."), the OpenAPI document's descriptions aside.
    const sharedDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
    const messages = fs
      .readdirSync(sharedDir)
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .flatMap((file) => [...fs.readFileSync(path.join(sharedDir, file), 'utf8').matchAll(/(?<!description:\s*)(?<!\\)(['"`])([A-Z][^'"`\n]*[.?!]|[a-z_]+ [^'"`\n]*[.?!])\1/g)].map((match) => match[2]!.replace(/\$\{\w+\}/g, '100')));
    expect(messages.length).toBeGreaterThan(40);
    for (const language of LANGUAGES.filter((language) => language !== 'en')) {
      expect(messages.filter((message) => translateMessage(message, language) === message)).toEqual([]);
    }
  });

  it('translates every refusal the server writes (message constants, error and `detail` literals in apps/server/src)', () => {
    // A `${value}` in a template is taken as a number; the refusals a function builds (counts) are tested beside the function.
    const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../apps/server/src');
    const sources = (fs.readdirSync(serverDir, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.split(path.sep).some((part) => part === 'test' || part === 'scripts'))
      .map((file) => fs.readFileSync(path.join(serverDir, file), 'utf8'));
    const literal = String.raw`(['"\`])((?:(?!\1)[^\n\\])+)\1`;
    // The errors whose message the caller reads: AppError and its subclasses (platform/errors.ts).
    const errorsSource = fs.readFileSync(path.join(serverDir, 'platform/errors.ts'), 'utf8');
    const appErrors = ['AppError', ...[...errorsSource.matchAll(/class (\w+) extends AppError/g)].map((match) => match[1]!)];
    expect(appErrors).toEqual(expect.arrayContaining(['NotFoundError', 'ConflictError', 'TooManyRequestsError']));
    const shapes = [
      // const NOT_FOUND = 'Project not found.'; (kept when it is a sentence: ends with . ? or !)
      new RegExp(String.raw`\bconst [A-Z][A-Z0-9_]* = ${literal};`, 'g'),
      // new NotFoundError('…'), new AppError(413, '…'), super(429, `…`), fieldError('field', '…')
      new RegExp(String.raw`(?:new (?:${appErrors.join('|')})\(|super\(|fieldError\()(?:[\w'.]+, )?${literal}`, 'g'),
      // { detail: translateMessage('…', …) }, { detail: '…' }, constructor(detail = '…')
      new RegExp(String.raw`(?:translateMessage\(|detail: |detail = )${literal}`, 'g'),
    ];
    const messages = [
      ...new Set(
        sources.flatMap((source) => shapes.flatMap((shape) => [...source.matchAll(shape)].map((match) => match[2]!.replace(/\$\{[^}]+\}/g, '100')))),
      ),
    ].filter((message) => /^[A-Z].*[.?!]$/.test(message));
    expect(messages).toEqual(expect.arrayContaining(['User not found.', 'Too many failed attempts. Try again in 100 seconds.', 'Connect with a WebSocket.', 'Not found.']));
    expect(messages).toEqual(expect.arrayContaining(['Choose another active manager or team member of your company to take over the work.']));
    expect(messages.length).toBeGreaterThan(40);
    for (const language of LANGUAGES.filter((language) => language !== 'en')) {
      expect(messages.filter((message) => translateMessage(message, language) === message)).toEqual([]);
    }
  });

  it('speaks Spanish in one register, tú, as the screens do (no usted imperative or "su empresa")', () => {
    const usted = /\b(Elija|elija|Introduzca|Vuelva|vuelva|Añada|Confirme|Use|use el|Compruebe|Seleccione|Inicie|inicie sesión en|usted|Usted|Escriba|Intente|Revise|Indique|Guarde|No puede|Solo puede|su empresa|su propia cuenta|su correo|le asignó|le enviamos|No tiene permiso|Reasigne|Envíe|Quite)\b/;
    expect(Object.values(catalogs.es!).filter((text) => usted.test(text))).toEqual([]);
  });

  it('speaks Mexican Spanish, not Spain’s (record 033): agregar and ingresa, no vosotros', () => {
    const spainOnly = /(?<!\p{L})(añad\p{L}*|añád\p{L}*|introduce|introduzca|pulsad\p{L}*|pulsa|ordenador|móvil|fichero|vosotros|os|\p{L}+áis|\p{L}+éis)(?!\p{L})/iu;
    expect(Object.values(catalogs.es!).filter((text) => spainOnly.test(text))).toEqual([]);
  });

  it('leaves a text it does not know in English', () => {
    expect(translateMessage('Something nobody wrote down.', 'es')).toBe('Something nobody wrote down.');
  });
});

describe('language negotiation and formatting', () => {
  it.each([
    [undefined, 'en'],
    ['de-CH,de;q=0.9,en;q=0.8', 'de'],
    ['pt-BR,pt;q=0.9,es;q=0.8,en;q=0.7', 'es'],
    ['en;q=0.5, fr', 'fr'],
    ['fr;q=0', 'en'],
    ['*', 'en'],
    // `*` stands for the languages not named: it never beats one that is, however low its q.
    ['fr;q=0.1, *', 'fr'],
    ['de;q=0.5, *;q=0.9', 'de'],
    ['FR-ca;q=0.2, pt, *;q=0.1', 'fr'],
  ])('%s → %s', (header, language) => {
    expect(negotiateLanguage(header)).toBe(language);
  });

  it('fills placeholders once, leaving braces in values alone', () => {
    expect(fill('{a} and {b}', { a: '{b}', b: 'x' })).toBe('{b} and x');
    expect(t('es', 'Page {page} of {count}', { page: 2, count: 3 })).toBe('Página 2 de 3');
  });

  it('formats date-only values without moving them, whatever the zone', () => {
    expect(formatDateOnly('2026-01-01', 'en')).toBe('2026-01-01');
    expect(formatDateOnly('2026-01-01', 'de')).toBe('01.01.2026');
    expect(formatDateOnly('2026-12-31', 'fr')).toBe('31 déc. 2026');
    expect(formatDateOnly('2026-12-31', 'es')).toBe('31 dic 2026');
  });

  it('writes Spanish numbers and times as Mexico does, as its texts are Mexican (record 128)', () => {
    expect(LOCALE_TAGS.es).toBe('es-MX');
    expect(formatNumber(1234.5, 'es')).toBe('1,234.5');
    expect(formatNumber(12345.75, 'es', { maximumFractionDigits: 2 })).toBe('12,345.75');
    expect(formatNumber(0.855, 'es', { style: 'percent', maximumFractionDigits: 1 })).toBe('85.5%');
    expect(formatDateOnly('2026-11-24', 'es')).toBe('24 nov 2026');
    // A 12-hour clock, as Mexico reads it (the space before p.m. differs between ICU versions).
    expect(formatWallClock('2026-11-24 13:05', LOCALE_TAGS.es)).toMatch(/^24 nov 2026, 1:05\sp\.\s?m\.$/);
    expect(numericDatePattern(LOCALE_TAGS.es)).toEqual({ order: ['day', 'month', 'year'], separator: '/' });
  });
});
