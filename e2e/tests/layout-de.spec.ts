import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext, type Locator, type Page } from '../test';
import { dayFromToday, type ApiMajorTask } from '../api-helpers';
import { HOME, openInApp, saveScreenshot, type Role } from '../fixtures';

/*
 * Every screen of every role, in German, at 390 and 1280 px: no text may be clipped by its box, run past
 * the screen's edge, or be broken inside a word (this Chromium has no hyphenation dictionaries, so a
 * word that does not fit is cut without a hyphen, "Genehmigu / ng"). German has the longest words of
 * the four languages; the data is as long as a real German site's (decision record 067). Spanish, whose
 * words are long too ("aprobación" in a narrow stat card), is checked at phone width, where it breaks first.
 */

type Language = 'de' | 'es';
/** The widths each language is checked at: Spanish at the phone's only, to keep CI's minutes. */
const LANGUAGE_WIDTHS: Record<Language, readonly number[]> = { de: [1280, 390], es: [390] };

const PASSWORD = 'lange-woerter-1';
const stamp = Date.now().toString(36);
const COMPANY = { name: (language: Language) => `Bauunternehmung Schwarzenberger-Hohenlohe GmbH & Co. KG ${stamp}${language}`, password: 'firmen-passwort-1' };
const domain = 'schwarzenberger-hohenlohe-bauunternehmung.example';
const PEOPLE = {
  admin: { email: `verwaltung.hauptbuchhaltung.${stamp}@${domain}`, full_name: null },
  manager: { email: `bauleitung.maximiliane.${stamp}@${domain}`, full_name: 'Maximiliane Schwarzenberger-Hohenlohe' },
  team_member: { email: `friedrich-wilhelm.oberbrandmeister.${stamp}@${domain}`, full_name: 'Friedrich-Wilhelm Oberbrandmeister' },
} satisfies Record<Role, { email: string; full_name: string | null }>;

/** The screens' words the journey looks for, from the app's own catalogs. */
function wordsIn(language: Language) {
  const folder = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../apps/web/src/locales', language);
  const catalog: Record<string, string> = Object.assign({}, ...readdirSync(folder).map((file) => JSON.parse(readFileSync(path.join(folder, file), 'utf8')) as Record<string, string>));
  const word = (key: string) => {
    const text = catalog[key];
    if (text === undefined) throw new Error(`${key} is missing in ${language}`);
    return text;
  };
  return {
    loading: word('app.loading'),
    pendingApprovals: word('taskBoard.pendingApprovals'),
    decline: word('taskBoard.decline'),
    declineTitle: word('record.decline.title'),
    send: word('taskBoard.sendForApproval'),
    sendTitle: word('record.send.title'),
    toggleSidebar: word('shell.toggleSidebar'),
    mainNavigation: word('shell.mainNavigation'),
    completedProjects: word('projectBoard.completed'),
  };
}
type Words = ReturnType<typeof wordsIn>;
const PROJECT = 'Generalsanierung Schulzentrum Oberwiesenfeld mit Tiefgarage und Fassadendämmung';
/** A completed project: its card carries the "view only" badge beside the name. */
const COMPLETED_PROJECT = 'Erweiterungsbau Kindertagesstätte Sonnenblume';
const MAJOR_TASK = 'Brandschutzertüchtigung der Treppenhäuser im dritten Obergeschoss';
const SUBTASKS = {
  pending: 'Betonbewehrung im Kellergeschoss vor dem Betonieren abnehmen lassen',
  ongoing: 'Abdichtungsarbeiten an der Tiefgaragenrampe einschließlich Entwässerungsrinne',
};

interface World {
  companyId: number;
  subtaskIds: Record<keyof typeof SUBTASKS, number>;
}

async function post<T>(request: APIRequestContext, path: string, data: unknown, token?: string): Promise<T> {
  const response = await request.post(path, { data, headers: token ? { Authorization: `Bearer ${token}` } : {} });
  expect(response.ok(), `${path} answered ${response.status()}: ${await response.text()}`).toBeTruthy();
  return (await response.json()) as T;
}

async function token(request: APIRequestContext, companyId: number, role: Role): Promise<string> {
  return (await post<{ access: string }>(request, '/api/token/', { email: PEOPLE[role].email, password: PASSWORD, role, company_id: companyId })).access;
}

const worlds = new Map<Language, Promise<World>>();

/**
 * A German company of its own per language (the demo accounts stay English for the other journeys): a
 * manager and a crew member with long names and addresses, a project with a major task, one subtask sent
 * for approval (the manager's Offene Abnahmen, the bell of both) and one still to do. Made once per worker.
 */
function companyIn(request: APIRequestContext, language: Language): Promise<World> {
  const made = worlds.get(language) ?? (async () => {
    const name = COMPANY.name(language);
    await post(request, '/api/signup/', { company_name: name, company_password: COMPANY.password, email: PEOPLE.admin.email, password: PASSWORD, timezone: 'Europe/Berlin', language });
    const { company_id: companyId } = await post<{ company_id: number }>(request, '/api/verify-company-password/', { company_name: name, password: COMPANY.password });
    const admin = await token(request, companyId, 'admin');
    const manager = await post<{ id: number }>(request, '/api/users/', { ...PEOPLE.manager, password: PASSWORD, role: 'manager', designation: 'Oberbauleiterin Hochbau' }, admin);
    const member = await post<{ id: number }>(request, '/api/users/', { ...PEOPLE.team_member, password: PASSWORD, role: 'team_member', manager_id: manager.id, designation: 'Vorarbeiter Betonbau' }, admin);
    const project = await post<{ id: number }>(
      request,
      '/api/projects/',
      { name: PROJECT, description: 'Abbruch, Rohbau, Abdichtung und Brandschutz bei laufendem Schulbetrieb.', start_date: dayFromToday(-10), end_date: dayFromToday(60), manager_id: manager.id, status: 'ongoing' },
      admin,
    );
    await post(request, '/api/projects/', { name: COMPLETED_PROJECT, description: '', start_date: dayFromToday(-120), end_date: dayFromToday(-20), manager_id: manager.id, status: 'completed' }, admin);
    const managerToken = await token(request, companyId, 'manager');
    const majorTask = await post<ApiMajorTask>(
      request,
      '/api/major-tasks/',
      {
        project_id: project.id,
        name: MAJOR_TASK,
        description: '',
        subtasks: Object.values(SUBTASKS).map((name, index) => ({ name, assigned_to_id: member.id, due_date: dayFromToday(index + 1), priority: 'high' })),
      },
      managerToken,
    );
    const subtaskIds = { pending: majorTask.subtasks.find((subtask) => subtask.name === SUBTASKS.pending)!.id, ongoing: majorTask.subtasks.find((subtask) => subtask.name === SUBTASKS.ongoing)!.id };
    const memberToken = await token(request, companyId, 'team_member');
    const sent = await request.patch(`/api/subtasks/${subtaskIds.pending}/`, { data: { status: 'pending_approval' }, headers: { Authorization: `Bearer ${memberToken}` } });
    expect(sent.ok(), await sent.text()).toBeTruthy();
    return { companyId, subtaskIds };
  })();
  worlds.set(language, made);
  return made;
}

/** Signs in through the API and stores the session as the login screen does (fixtures.signIn, for this company). */
async function signIn(page: Page, role: Role, companyId: number, language: Language) {
  const tokens = await post<{ access: string; refresh: string }>(page.request, '/api/token/', { email: PEOPLE[role].email, password: PASSWORD, role, company_id: companyId });
  const profile = await page.request.get('/api/profile/', { headers: { Authorization: `Bearer ${tokens.access}` } });
  expect(profile.ok()).toBeTruthy();
  const session = { company_id: String(companyId), token: tokens.access, refreshToken: tokens.refresh, user: JSON.stringify(await profile.json()), language };
  await page.goto('/favicon.svg');
  await page.evaluate((items) => Object.entries(items).forEach(([key, value]) => localStorage.setItem(key, value)), session);
}

interface Finding {
  problem: string;
  element: string;
  text: string;
}

/**
 * Runs in the page: every visible text that is clipped by a box whose overflow hides it (text-overflow
 * ellipsis with a title showing the whole is allowed), reaches past the screen's edge outside a
 * horizontally scrolling container, is broken inside a word, or (with nothing open over the screen)
 * lies under another element anywhere across its visible box, as a column under a table's sticky last column
 * (which, unlike the page's sticky bars, must not cover its own table's text). Punctuation inside addresses and
 * codes (@ . - / _) are sensible places to break.
 */
function findOverflow(checkCovered: boolean): Finding[] {
  const findings: Finding[] = [];
  const viewportWidth = document.documentElement.clientWidth;
  const describe = (element: Element) => {
    const label = element.getAttribute('aria-label') ?? element.getAttribute('data-testid');
    const classes = typeof element.className === 'string' ? element.className.split(/\s+/).slice(0, 4).join('.') : '';
    return `<${element.tagName.toLowerCase()}${label ? ` "${label}"` : ''}${classes ? ` .${classes}` : ''}>`;
  };
  const clips = (value: string) => value === 'hidden' || value === 'clip';
  const scrolls = (value: string) => value === 'auto' || value === 'scroll';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent ?? '';
    const parent = node.parentElement;
    if (!text.trim() || !parent || parent.closest('script, style, noscript, option, svg, [aria-hidden="true"]')) continue;
    if (!parent.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const report = (problem: string, element: Element) => findings.push({ problem, element: describe(element), text: text.trim().slice(0, 90) });

    let hiddenByDesign = false;
    let clipped = false;
    let scrolledHorizontally = false;
    // What of the text can be seen: the viewport cut by every ancestor that scrolls or clips.
    const visible = { left: 0, top: 0, right: viewportWidth, bottom: window.innerHeight };
    for (let ancestor: Element | null = parent; ancestor && ancestor !== document.body; ancestor = ancestor.parentElement) {
      const style = getComputedStyle(ancestor);
      const rect = ancestor.getBoundingClientRect();
      // Screen-reader-only text and collapsed regions are hidden on purpose: wholly outside their clip.
      const outside = box.right <= rect.left || box.left >= rect.right || box.bottom <= rect.top || box.top >= rect.bottom;
      if ((clips(style.overflowX) || clips(style.overflowY)) && (outside || rect.width <= 1 || rect.height <= 1)) {
        hiddenByDesign = true;
        break;
      }
      if (scrolls(style.overflowX)) scrolledHorizontally = true;
      if (style.overflowX !== 'visible') Object.assign(visible, { left: Math.max(visible.left, rect.left), right: Math.min(visible.right, rect.right) });
      if (style.overflowY !== 'visible') Object.assign(visible, { top: Math.max(visible.top, rect.top), bottom: Math.min(visible.bottom, rect.bottom) });
      const cutX = clips(style.overflowX) && (box.right > rect.right + 1 || box.left < rect.left - 1);
      const cutY = clips(style.overflowY) && (box.bottom > rect.bottom + 1 || box.top < rect.top - 1);
      if (cutX || cutY) {
        clipped = true;
        const truncatedWithTitle = (style.textOverflow === 'ellipsis' || style.webkitLineClamp !== 'none') && ancestor.closest('[title]');
        if (!truncatedWithTitle) report(`clipped ${cutX ? 'horizontally' : 'vertically'} by`, ancestor);
        break;
      }
      if (scrolls(style.overflowX) && scrolls(style.overflowY)) break;
    }
    if (hiddenByDesign) continue;
    // Clipped text (reported above, or truncated with a title) ends at its box, not where its range would.
    if (!scrolledHorizontally && !clipped && box.left < viewportWidth && (box.right > viewportWidth + 1 || (box.left < -1 && box.right > 0))) report('past the screen edge', parent);

    if (checkCovered) {
      // Every line of the text across its whole visible width, not only where it starts: a column
      // half under a table's sticky buttons starts in view.
      let covering: Element | null = null;
      for (const line of Array.from(range.getClientRects())) {
        const left = Math.max(line.left, visible.left) + 1;
        const right = Math.min(line.right, visible.right) - 1;
        const y = line.top + line.height / 2;
        if (right <= left || y <= visible.top || y >= visible.bottom) continue;
        for (const share of [0, 0.25, 0.5, 0.75, 1]) {
          const top = document.elementFromPoint(left + (right - left) * share, y);
          if (!top || parent.contains(top) || top.contains(parent)) continue;
          // Sticky and fixed bars (the header, a form's action bar, the phone's menu) cover what scrolls
          // under them on purpose. A sticky cell of the text's own scrolling table does not: the table
          // must fit beside it before anyone scrolls.
          let pinned: Element | null = null;
          for (let element: Element | null = top; element && !pinned; element = element.parentElement) {
            if (['sticky', 'fixed'].includes(getComputedStyle(element).position) && !element.contains(parent)) pinned = element;
          }
          const ownTable = pinned?.closest('table');
          if (pinned && !ownTable?.contains(parent)) continue;
          covering = top;
          break;
        }
        if (covering) break;
      }
      if (covering) report(`covered by ${describe(covering)} in`, parent);
    }

    for (const match of text.matchAll(/[^\s\-‐\u00ad/@._:,;()]{2,}/g)) {
      // A word is broken when its second and last letters sit on different lines (a word's first letter
      // after a soft hyphen measures on the line before, where the hyphen is drawn).
      const lineOf = (offset: number) => {
        const letter = document.createRange();
        letter.setStart(node, offset);
        letter.setEnd(node, offset + 1);
        return Math.round(letter.getBoundingClientRect().top);
      };
      if (lineOf(match.index + 1) !== lineOf(match.index + match[0].length - 1)) {
        findings.push({ problem: 'word broken across lines in', element: describe(parent), text: match[0] });
        break;
      }
    }
  }
  // A field's placeholder says what to type: cut short ("Teil eines Namens oder ei"), it says less. It is no
  // text node, so it is measured with the field's own font against the room inside the field.
  const canvas = document.createElement('canvas').getContext('2d')!;
  for (const field of Array.from(document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[placeholder], textarea[placeholder]'))) {
    if (field.value || !field.placeholder.trim() || field.closest('[aria-hidden="true"]') || !field.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    if (field instanceof HTMLTextAreaElement) continue;
    const style = getComputedStyle(field);
    canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    if (room > 0 && canvas.measureText(field.placeholder).width > room + 1) findings.push({ problem: 'placeholder cut short in', element: describe(field), text: field.placeholder });
  }
  return findings;
}

/**
 * Checks the page at `widths`, from the widest (a screen is opened once, then narrowed). A finding on
 * the page behind a dialog is reported once, for the screen. A screen's own check (`screen`, its
 * screenshots' prefix) is saved as a CI artefact, for whoever changes it to look at.
 */
async function checkScreen(page: Page, name: string, ready: Locator, findings: Map<string, string>, { widths, words, screen }: { widths: readonly number[]; words: Words; screen?: string }) {
  for (const width of widths) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
    await expect(ready).toBeVisible();
    // A new width starts transitions (the phone's menu slides out of view): measure where things come to rest.
    // Only transitions: a loading bar's pulse runs for ever.
    await page.waitForFunction(() => document.getAnimations().every((animation) => !(animation instanceof CSSTransition) || animation.playState !== 'running'));
    await expect(page.getByText(words.loading)).toHaveCount(0);
    for (const finding of await page.evaluate(findOverflow, screen !== undefined)) {
      const what = `${finding.problem} ${finding.element}: "${finding.text}"`;
      if (!findings.has(`${width} ${what}`)) findings.set(`${width} ${what}`, `${name} @ ${width}px: ${what}`);
    }
    if (screen) await saveScreenshot(page, `${screen}${name.replaceAll(/[/?=]/g, '-')}-${width}`);
  }
}

/**
 * On a phone the company's long name is there to read whole (decision record 067): shown, not cut
 * short with "…", and nothing runs past the screen's 390 px.
 */
async function expectCompanyNameReadable(page: Page, name: string) {
  await page.setViewportSize({ width: 390, height: 844 });
  const shown = page.getByText(name, { exact: true }).filter({ visible: true });
  await expect(shown).toHaveCount(1);
  const fits = await shown.evaluate((element) => ({ whole: element.scrollHeight <= element.clientHeight + 1, inScreen: element.getBoundingClientRect().right <= window.innerWidth }));
  expect(fits, `"${name}" at 390 px`).toEqual({ whole: true, inScreen: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth), 'no sideways scrolling at 390 px').toBe(true);
}

interface Screen {
  path: string;
  /** Names the check and its screenshots where one path has two screens (a tab); the path otherwise. */
  label?: string;
  /** What a person does on arriving, before the screen is checked. */
  prepare?: (page: Page) => Promise<void>;
  /** What shows once the screen has its data. */
  ready: (page: Page) => Locator;
  /** Dialogs and menus opened on this screen, checked at both widths too. */
  open?: { name: string; action: (page: Page) => Promise<Locator>; widths?: readonly number[]; close?: (page: Page, opened: Locator) => Promise<void> }[];
}

async function closeWithEscape(page: Page, opened: Locator) {
  await page.keyboard.press('Escape');
  await expect(opened).toBeHidden();
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 });

const bell = { name: 'bell', action: async (page: Page) => (await page.getByTestId('notification-bell').click(), page.getByTestId('notification-item').first()) };

/** The phone's menu, a drawer of its own. */
const menuIn = (words: Words) => ({
  name: 'menu',
  widths: [390],
  action: async (page: Page) => (await page.getByRole('button', { name: words.toggleSidebar }).click(), page.getByRole('navigation', { name: words.mainNavigation })),
  // A tap on the dimmed page beside the drawer closes it; it slides out of view, still in the document.
  close: async (page: Page, opened: Locator) => {
    await page.mouse.click(380, 400);
    await expect(opened).not.toBeInViewport();
  },
});

const screensIn = (words: Words, menu = menuIn(words)): Record<Role, Screen[]> => ({
  admin: [
    { path: '/admin', ready: (page) => page.getByRole('table').getByText(PEOPLE.team_member.email), open: [menu] },
    { path: '/admin/create-user', ready: heading },
    { path: '/admin/create-project', ready: heading },
    { path: '/admin/invitations', ready: heading },
    { path: '/admin/company-settings', ready: heading },
    { path: '/admin/daily-log', ready: heading },
    { path: '/admin/drawings', ready: heading },
  ],
  manager: [
    {
      path: '/manager',
      // The dashboard's Offene Abnahmen card opens the list with its approve and decline buttons.
      prepare: async (page) => page.getByRole('button', { name: new RegExp(`^${words.pendingApprovals}`) }).click(),
      ready: (page) => page.getByText(SUBTASKS.pending).filter({ visible: true }).first(),
      open: [
        bell,
        menu,
        {
          name: 'decline dialog',
          action: async (page) => {
            await page.getByRole('button', { name: words.decline }).first().click();
            return page.getByRole('dialog', { name: words.declineTitle });
          },
        },
      ],
    },
    { path: '/manager/projects', ready: (page) => page.getByText(PROJECT).filter({ visible: true }).first() },
    {
      path: '/manager/projects',
      label: '/manager/projects completed',
      prepare: async (page) => page.getByRole('tab', { name: words.completedProjects }).click(),
      ready: (page) => page.getByText(COMPLETED_PROJECT).filter({ visible: true }).first(),
    },
    { path: '/manager/create-task', ready: heading },
    { path: '/manager/my-tasks', ready: heading },
    { path: '/manager/team-assignments', ready: heading },
    { path: '/manager/daily-log', ready: heading },
    { path: '/manager/drawings', ready: heading },
  ],
  team_member: [
    {
      path: '/team-member',
      ready: heading,
      open: [bell, menu],
    },
    { path: '/team-member/projects', ready: (page) => page.getByText(PROJECT).filter({ visible: true }).first() },
    { path: '/team-member/create-task', ready: heading },
    {
      path: '/team-member/my-tasks',
      ready: (page) => page.getByText(SUBTASKS.ongoing).filter({ visible: true }).first(),
      open: [
        {
          name: 'send dialog',
          action: async (page) => {
            await page.getByRole('button', { name: words.send }).first().click();
            return page.getByRole('dialog', { name: words.sendTitle });
          },
        },
      ],
    },
    { path: '/team-member/daily-log', ready: heading },
    { path: '/team-member/drawings', ready: heading },
  ],
});

const LANGUAGE_NAMES: Record<Language, string> = { de: 'German', es: 'Spanish' };

for (const language of ['de', 'es'] as const) {
  const widths = LANGUAGE_WIDTHS[language];
  for (const role of ['admin', 'manager', 'team_member'] as const) {
    test(`every ${role} screen in ${LANGUAGE_NAMES[language]} fits at ${widths.join(' and ')} px: no text clipped, past the edge or broken mid-word`, async ({ page, request }) => {
      // Some twenty screens and dialogs at two widths: more than a journey's usual two minutes on a busy machine.
      test.slow();
      const words = wordsIn(language);
      const { companyId, subtaskIds } = await companyIn(request, language);
      await signIn(page, role, companyId, language);
      const findings = new Map<string, string>();
      const screens: Screen[] = [
        ...screensIn(words)[role],
        // The subtask drawer opens over any screen of the area.
        ...(role === 'admin' ? [] : [{ path: `${HOME[role]}/my-tasks?subtask=${subtaskIds.pending}`, ready: (page: Page) => page.getByRole('dialog', { name: SUBTASKS.pending }) }]),
      ];
      await page.goto(HOME[role]);
      await expectCompanyNameReadable(page, COMPANY.name(language));
      // One start of the app, then its own navigation from screen to screen (the home screen is the first).
      for (const screen of screens) {
        if (screen.path !== HOME[role]) await openInApp(page, screen.path);
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        await screen.prepare?.(page);
        await checkScreen(page, screen.label ?? screen.path, screen.ready(page), findings, { widths, words, screen: `layout-${language}` });
        for (const { name, action, widths: openWidths = widths, close = closeWithEscape } of screen.open ?? []) {
          for (const width of openWidths.filter((width) => widths.includes(width))) {
            await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
            const opened = await action(page);
            await checkScreen(page, `${screen.label ?? screen.path} ${name}`, opened, findings, { widths: [width], words });
            await close(page, opened);
          }
        }
      }
      expect([...findings.values()]).toEqual([]);
    });
  }
}
