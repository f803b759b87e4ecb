import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import OpenSeadragon from 'openseadragon';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DAILY_LOG_PROJECTS_MAX_LIMIT, type DailyLogProject, type Sheet, type SheetPin, type Subtask } from '@siteboard/shared';
import type { TestUser } from '../../../../../server/src/test/factories';
import { createUser } from '../../../../../server/src/test/factories';
import { insertMajorTask, insertProject, insertSubtask } from '../../../../../server/src/test/work-factories';
import { api, apiPage } from '../../../lib/api-client';
import { invalidateAfterSubtaskChange } from '../../../lib/query-keys';
import { startApiServer, type ApiServer } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { DrawingsPage } from './drawings-page';

/** The projects the person may open, as the pages give them (the daily log feature's list). */
const projectsQuery = { queryKey: ['daily-log-projects'], queryFn: () => apiPage<DailyLogProject>('/api/daily-logs/projects/', { query: { limit: DAILY_LOG_PROJECTS_MAX_LIMIT } }) };

let server: ApiServer;
let admin: TestUser;
let manager: TestUser;
let member: TestUser;
let stranger: TestUser;
let projectId: number;

beforeAll(async () => {
  server = await startApiServer();
  const crew = await server.createCrew();
  ({ manager, member } = crew);
  admin = crew.company.admin;
  stranger = await createUser(server.database.db, crew.company.id, 'team_member');
  projectId = (await insertProject(server.database.db, crew.company.id, { managerId: manager.id, name: 'Harbour Wall', startDate: '2025-01-01', endDate: '2099-12-31' })).id;
  const majorTask = await insertMajorTask(server.database.db, crew.company.id, projectId, { name: 'Quay' });
  await insertSubtask(server.database.db, { companyId: crew.company.id, majorTaskId: majorTask.id, assignedToId: member.id, assignedById: manager.id, name: 'Anchor bollard 4' });
  // More subtasks than the pin picker lists at once, due after the bollard.
  const deck = await insertMajorTask(server.database.db, crew.company.id, projectId, { name: 'Deck' });
  for (let plank = 1; plank <= 30; plank++) {
    await insertSubtask(server.database.db, { companyId: crew.company.id, majorTaskId: deck.id, assignedToId: member.id, assignedById: manager.id, name: `Deck plank ${plank}`, dueDate: '2031-01-01' });
  }
});
afterAll(() => server.close());

describe('the drawings screen', () => {
  it("the project's manager uploads a plan, sees it render, renames it and deletes it", async () => {
    await server.signIn(manager);
    renderScreen(<DrawingsPage projectsQuery={projectsQuery} />, { path: `/manager/drawings?project=${projectId}`, route: '/manager/drawings' });
    const plan = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#ffffff' } }).png().toBuffer();
    await userEvent.upload(await screen.findByLabelText('Upload drawing'), new File([new Uint8Array(plan)], 'quay-plan.png', { type: 'image/png' }));

    const sheets = screen.getByRole('region', { name: 'Sheets' });
    expect(await within(sheets).findByRole('button', { name: 'quay-plan' })).toBeInTheDocument();
    // Rendered in the background: the list polls until the sheet is ready, then it opens.
    await waitFor(() => expect(within(sheets).getByText('Ready')).toBeInTheDocument(), { timeout: 20_000 });
    expect(within(sheets).getByRole('button', { name: 'quay-plan' })).toBeEnabled();

    await userEvent.click(within(sheets).getByRole('button', { name: 'Rename' }));
    await userEvent.clear(within(sheets).getByLabelText('Name'));
    await userEvent.type(within(sheets).getByLabelText('Name'), 'Quay plan');
    await userEvent.click(within(sheets).getByRole('button', { name: 'Save' }));
    expect(await within(sheets).findByRole('button', { name: 'Quay plan' })).toBeInTheDocument();

    await userEvent.click(within(sheets).getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await within(sheets).findByText('No drawings yet: upload a PDF plan set or an image.')).toBeInTheDocument();
  }, 40_000);

  it('a crew member with work sees the sheets but cannot change them; one without work sees no project', async () => {
    await server.signIn(member);
    const { unmount } = renderScreen(<DrawingsPage projectsQuery={projectsQuery} />, { path: `/team-member/drawings?project=${projectId}`, route: '/team-member/drawings' });
    expect(await screen.findByText('No drawings yet.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Upload drawing')).not.toBeInTheDocument();
    unmount();

    await server.signIn(stranger);
    renderScreen(<DrawingsPage projectsQuery={projectsQuery} />, { path: '/team-member/drawings', route: '/team-member/drawings' });
    expect(await screen.findByRole('option', { name: 'No projects with drawings for you.' })).toBeInTheDocument();
  });

  it("beside an opened sheet the manager finds the project's unpinned subtasks to drag on or place with a tap", async () => {
    await server.signIn(manager);
    // The project's whole tree (`?expand=major_tasks`) fails to load: the picker must not need it.
    server.answer('GET', /[?&]expand=major_tasks/, { status: 500, json: { detail: 'Too large for a phone' } });
    renderScreen(<DrawingsPage projectsQuery={projectsQuery} />, { path: `/manager/drawings?project=${projectId}`, route: '/manager/drawings' });
    const plan = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#ffffff' } }).png().toBuffer();
    await userEvent.upload(await screen.findByLabelText('Upload drawing'), new File([new Uint8Array(plan)], 'quay-west.png', { type: 'image/png' }));
    const sheets = screen.getByRole('region', { name: 'Sheets' });
    await waitFor(() => expect(within(sheets).getByRole('button', { name: 'quay-west' })).toBeEnabled(), { timeout: 20_000 });
    await userEvent.click(within(sheets).getByRole('button', { name: 'quay-west' }));

    const unpinned = await screen.findByRole('region', { name: 'Not on a sheet yet' });
    expect(screen.getByText('Long-press (or click) the sheet to add a subtask there. Drag a pin to move it.')).toBeInTheDocument();
    const item = (await within(unpinned).findByText('Anchor bollard 4')).closest('li')!;
    expect(item).toHaveAttribute('draggable', 'true');
    // The tap (and keyboard) way: choose it, then the next tap on the sheet places it.
    await userEvent.click(within(unpinned).getByRole('button', { name: 'Place on sheet', description: 'Anchor bollard 4' }));
    expect(screen.getByRole('status')).toHaveTextContent('Tap the sheet where Anchor bollard 4 is.');
    await userEvent.click(within(unpinned).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByText('Tap the sheet where Anchor bollard 4 is.')).not.toBeInTheDocument();

    // Thirty-one subtasks: a page of them, Show More, and any one found by typing a part of its name.
    expect(within(unpinned).getAllByRole('listitem')).toHaveLength(20);
    expect(within(unpinned).getByRole('button', { name: 'Show More' })).toBeInTheDocument();
    expect(screen.getByText('Showing 20 of 31: type to narrow the list.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Search subtasks'), 'plank 30');
    await waitFor(() => expect(within(unpinned).getAllByRole('listitem')).toHaveLength(1));
    expect(within(unpinned).getByText('Deck plank 30')).toBeInTheDocument();
    // The dropdown's own search (pinned subtasks too) answers in its own time.
    const pinPicker = screen.getByLabelText('Pin a subtask');
    await waitFor(() => expect(within(pinPicker).getAllByRole('option').map((option) => option.textContent)).toContain('Deck · Deck plank 30'));
    await userEvent.selectOptions(pinPicker, 'Deck · Deck plank 30');
    expect(screen.getByRole('status')).toHaveTextContent('Tap the sheet where Deck plank 30 is.');
    expect(server.answered).toEqual([]);
    server.clearAnswers();
  }, 40_000);

  it("a completed project's sheet shows the work it closed unfinished in grey, apart from open and overdue work", async () => {
    const closing = await insertProject(server.database.db, manager.companyId, { managerId: manager.id, name: 'Dry Dock', startDate: '2025-01-01', endDate: '2099-12-31' });
    const dock = await insertMajorTask(server.database.db, manager.companyId, closing.id, { name: 'Gates' });
    const left = await insertSubtask(server.database.db, { companyId: manager.companyId, majorTaskId: dock.id, assignedToId: member.id, assignedById: manager.id, name: 'Seal gate hinge', dueDate: '2020-01-10' });
    const done = await insertSubtask(server.database.db, { companyId: manager.companyId, majorTaskId: dock.id, assignedToId: member.id, assignedById: manager.id, name: 'Paint gate', status: 'completed' });
    await server.signIn(manager);
    const upload = new FormData();
    upload.append('file', new File([new Uint8Array(await sharp({ create: { width: 600, height: 400, channels: 3, background: '#ffffff' } }).png().toBuffer())], 'dock.png', { type: 'image/png' }));
    const [sheet] = await api<Sheet[]>(`/api/projects/${closing.id}/sheets/`, { method: 'POST', body: upload });
    await waitFor(async () => expect((await api<Sheet>(`/api/sheets/${sheet!.id}/`)).status).toBe('ready'), { timeout: 20_000 });
    for (const [id, x] of [[left.id, 0.25], [done.id, 0.75]] as const) await api<Subtask>(`/api/subtasks/${id}/`, { method: 'PATCH', body: { pin: { sheet_id: sheet!.id, x, y: 0.5 } } });
    // The office completes the project with its work unfinished (decision record 061).
    await server.signIn(admin);
    await api(`/api/projects/${closing.id}/`, { method: 'PATCH', body: { status: 'completed', confirm_open_work: true } });

    await server.signIn(manager);
    // jsdom lays nothing out: the viewer gets a size, so OpenSeadragon opens the sheet and draws its pins.
    const size = (value: number) => ({ configurable: true, get: () => value });
    Object.defineProperties(HTMLElement.prototype, { clientWidth: size(600), clientHeight: size(400) });
    try {
      renderScreen(<DrawingsPage projectsQuery={projectsQuery} />, { path: `/manager/drawings?project=${closing.id}&sheet=${sheet!.id}`, route: '/manager/drawings' });
      const closed = await screen.findByRole('button', { name: 'Seal gate hinge (Closed unfinished)' });
      expect(screen.getByRole('button', { name: 'Paint gate (Completed)' })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /^Seal gate hinge \((Overdue|Ongoing)\)/ })).not.toBeInTheDocument();
      // Its colour is the legend's "Closed unfinished", no colour of open work.
      const legend = screen.getByRole('list', { name: 'Pin colours' });
      const swatchOf = (name: string) => [...within(legend).getByText(name).querySelector('span')!.classList].find((name) => name.startsWith('bg-'))!;
      expect(closed).toHaveClass(swatchOf('Closed unfinished'));
      for (const open of ['Ongoing', 'Pending Approval', 'Overdue']) expect(closed).not.toHaveClass(swatchOf(open));
      // The status filter tells it apart: not among the ongoing or overdue pins, alone under its own.
      const filter = screen.getByLabelText('Status');
      // On a phone the filters wait behind a button that opens them and says when one hides pins.
      const filters = screen.getByRole('button', { name: 'Filter' });
      expect(filters).toHaveAttribute('aria-expanded', 'false');
      expect(document.getElementById(filters.getAttribute('aria-controls')!)).toContainElement(filter);
      await userEvent.click(filters);
      expect(filters).toHaveAttribute('aria-expanded', 'true');
      await userEvent.selectOptions(filter, 'Overdue');
      expect(screen.getByRole('button', { name: 'Filter (on)' })).toBe(filters);
      await waitFor(() => expect(screen.queryByRole('button', { name: /^Seal gate hinge/ })).not.toBeInTheDocument());
      await userEvent.selectOptions(filter, 'Closed unfinished');
      expect(await screen.findByRole('button', { name: 'Seal gate hinge (Closed unfinished)' })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /^Paint gate/ })).not.toBeInTheDocument();
    } finally {
      for (const property of ['clientWidth', 'clientHeight']) Reflect.deleteProperty(HTMLElement.prototype, property);
    }
  }, 40_000);

  it("a new pinned subtask goes under a project's only major task unless the manager chooses; with more, the manager chooses", async () => {
    const companyId = manager.companyId;
    const slipway = await insertProject(server.database.db, companyId, { managerId: manager.id, name: 'Slipway', startDate: '2025-01-01', endDate: '2099-12-31' });
    const hull = await insertMajorTask(server.database.db, companyId, slipway.id, { name: 'Hull' });
    const dock = await insertProject(server.database.db, companyId, { managerId: manager.id, name: 'Dry berth', startDate: '2025-01-01', endDate: '2099-12-31' });
    for (const name of ['Gates', 'Pumps']) await insertMajorTask(server.database.db, companyId, dock.id, { name });
    await server.signIn(manager);
    const plan = new Uint8Array(await sharp({ create: { width: 600, height: 400, channels: 3, background: '#ffffff' } }).png().toBuffer());
    /** The new-subtask form of a sheet of the project, opened with the keyboard. */
    const openNewSubtaskForm = async (project: number) => {
      const upload = new FormData();
      upload.append('file', new File([plan], 'berth.png', { type: 'image/png' }));
      const [sheet] = await api<Sheet[]>(`/api/projects/${project}/sheets/`, { method: 'POST', body: upload });
      await waitFor(async () => expect((await api<Sheet>(`/api/sheets/${sheet!.id}/`)).status).toBe('ready'), { timeout: 20_000 });
      const view = renderScreen(<DrawingsPage projectsQuery={projectsQuery} />, { path: `/manager/drawings?project=${project}&sheet=${sheet!.id}`, route: '/manager/drawings' });
      const viewer = await screen.findByTestId('sheet-viewer');
      await userEvent.selectOptions(screen.getByLabelText('Pin a subtask'), 'A new subtask here…');
      act(() => within(viewer).getByTestId('pin-marker').focus());
      await userEvent.keyboard('{Enter}');
      return { form: await screen.findByRole('form', { name: 'New subtask at the tapped point' }), view };
    };

    const only = await openNewSubtaskForm(slipway.id);
    const picker = within(only.form).getByLabelText('Major task');
    await waitFor(() => expect(picker).toHaveValue(String(hull.id)));
    expect(picker).toHaveDisplayValue('Hull');
    // Searching is choosing again: the choice is cleared until the manager picks.
    await userEvent.type(within(only.form).getByLabelText('Search tasks by name'), 'hu');
    await waitFor(() => expect(picker).toHaveValue(''));
    only.view.unmount();

    const several = await openNewSubtaskForm(dock.id);
    const choices = within(several.form).getByLabelText('Major task');
    await waitFor(() => expect(within(choices).getAllByRole('option').map((option) => option.textContent)).toEqual(['Choose a major task', 'Gates', 'Pumps']));
    expect(choices).toHaveValue('');
  }, 40_000);

  it('pins are reached, opened, moved and placed with the keyboard alone, and listed beside the sheet', async () => {
    const site = await insertProject(server.database.db, manager.companyId, { managerId: manager.id, name: 'Lock Gate', startDate: '2025-01-01', endDate: '2099-12-31' });
    const chamber = await insertMajorTask(server.database.db, manager.companyId, site.id, { name: 'Chamber' });
    const add = (name: string) => insertSubtask(server.database.db, { companyId: manager.companyId, majorTaskId: chamber.id, assignedToId: member.id, assignedById: manager.id, name, dueDate: '2090-05-01' });
    const [lower, upper, ladder] = [await add('Grout lower sill'), await add('Fix upper sill'), await add('Ladder rungs')];
    await server.signIn(manager);
    const upload = new FormData();
    upload.append('file', new File([new Uint8Array(await sharp({ create: { width: 600, height: 400, channels: 3, background: '#ffffff' } }).png().toBuffer())], 'lock.png', { type: 'image/png' }));
    const [sheet] = await api<Sheet[]>(`/api/projects/${site.id}/sheets/`, { method: 'POST', body: upload });
    await waitFor(async () => expect((await api<Sheet>(`/api/sheets/${sheet!.id}/`)).status).toBe('ready'), { timeout: 20_000 });
    // The lower sill is pinned first but lies lower on the sheet: the keyboard meets the upper one first.
    await api<Subtask>(`/api/subtasks/${lower.id}/`, { method: 'PATCH', body: { pin: { sheet_id: sheet!.id, x: 0.25, y: 0.75 } } });
    await api<Subtask>(`/api/subtasks/${upper.id}/`, { method: 'PATCH', body: { pin: { sheet_id: sheet!.id, x: 0.75, y: 0.25 } } });
    const pinOf = async (id: number) => (await api<SheetPin[]>(`/api/sheets/${sheet!.id}/pins/`)).find((pin) => pin.subtask_id === id);

    const size = (value: number) => ({ configurable: true, get: () => value });
    Object.defineProperties(HTMLElement.prototype, { clientWidth: size(600), clientHeight: size(400) });
    try {
      const { router } = renderScreen(<DrawingsPage projectsQuery={projectsQuery} />, { path: `/manager/drawings?project=${site.id}&sheet=${sheet!.id}`, route: '/manager/drawings' });
      const viewer = await screen.findByTestId('sheet-viewer');
      const upperPin = await within(viewer).findByRole('button', { name: 'Fix upper sill (Ongoing)' });
      expect(upperPin).toHaveAccessibleDescription('Enter opens it; the arrow keys move it.');
      act(() => upperPin.focus());
      await userEvent.tab();
      expect(within(viewer).getByRole('button', { name: 'Grout lower sill (Ongoing)' })).toHaveFocus();

      // Enter opens what a click opens: the subtask's drawer, named in the address.
      await userEvent.keyboard('{Enter}');
      await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('subtask')).toBe(String(lower.id)));

      // Arrow keys move it where it is drawn, Escape puts it back: nothing is saved.
      await userEvent.keyboard('{Shift>}{ArrowRight}{/Shift}');
      expect(screen.getByText('Moving Grout lower sill: the arrow keys move it (Shift: further), Enter puts it here, Escape puts it back.')).toBeInTheDocument();
      expect(screen.getByText('33% across, 75% down')).toBeInTheDocument();
      await userEvent.keyboard('{Escape}');
      expect(screen.queryByText(/^Moving Grout lower sill/)).not.toBeInTheDocument();
      // Moved again (a step of 8 px is 1/75 of this 600 px sheet; Shift, 48 px) and put down with Enter: saved there, and the keyboard stays on it.
      await userEvent.keyboard('{Shift>}{ArrowRight}{ArrowUp}{/Shift}{ArrowRight}');
      await userEvent.keyboard('{Enter}');
      await waitFor(async () => expect(await pinOf(lower.id)).toMatchObject({ x: expect.closeTo(0.25 + 0.08 + 8 / 600, 3), y: expect.closeTo(0.75 - 48 / 400, 3) }));
      await waitFor(() => expect(within(viewer).getByRole('button', { name: 'Grout lower sill (Ongoing)' })).toHaveFocus());

      // Placing without a pointer: "Place on sheet" hands the keyboard to a marker in the middle of the view.
      const unpinned = screen.getByRole('region', { name: 'Not on a sheet yet' });
      await userEvent.click(await within(unpinned).findByRole('button', { name: 'Place on sheet', description: 'Ladder rungs' }));
      expect(screen.getByRole('status')).toHaveTextContent('Tap the sheet where Ladder rungs is. With the keyboard: move the marker with the arrow keys (Shift: further), Enter places the pin, Escape cancels.');
      const marker = within(viewer).getByRole('button', { name: 'Place Ladder rungs here, 50% across, 50% down' });
      expect(marker).toHaveFocus();
      // Escape cancels and gives the keyboard back to the button it came from.
      await userEvent.keyboard('{Escape}');
      expect(within(viewer).queryByTestId('pin-marker')).not.toBeInTheDocument();
      expect(within(unpinned).getByRole('button', { name: 'Place on sheet', description: 'Ladder rungs' })).toHaveFocus();
      await userEvent.keyboard('{Enter}');
      await waitFor(() => expect(within(viewer).getByTestId('pin-marker')).toHaveFocus());
      await userEvent.keyboard('{Shift>}{ArrowDown}{ArrowDown}{/Shift}{ArrowLeft}');
      expect(within(viewer).getByTestId('pin-marker')).toHaveAccessibleName('Place Ladder rungs here, 49% across, 74% down');
      await userEvent.keyboard('{Enter}');
      await waitFor(async () => expect(await pinOf(ladder.id)).toMatchObject({ x: expect.closeTo(0.5 - 8 / 600, 3), y: expect.closeTo(0.5 + 96 / 400, 3) }));
      // The new pin takes the keyboard once it is drawn.
      await waitFor(() => expect(within(viewer).getByRole('button', { name: 'Ladder rungs (Ongoing)' })).toHaveFocus());

      // The list of the sheet's pins, in the same order: each opens its subtask, or shows it on the sheet with the keyboard on it.
      await userEvent.click(screen.getByRole('button', { name: '3 pins on this sheet' }));
      const list = screen.getByRole('button', { name: '3 pins on this sheet' }).nextElementSibling as HTMLElement;
      expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Fix upper sillOngoingShow on sheet', 'Grout lower sillOngoingShow on sheet', 'Ladder rungsOngoingShow on sheet']);
      await userEvent.click(within(list).getByRole('button', { name: 'Fix upper sill' }));
      await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('subtask')).toBe(String(upper.id)));
      // Its name is what it says; the pin's name describes it.
      await userEvent.click(within(list).getByRole('button', { name: 'Show on sheet', description: 'Ladder rungs' }));
      expect(within(viewer).getByRole('button', { name: 'Ladder rungs (Ongoing)' })).toHaveFocus();
    } finally {
      for (const property of ['clientWidth', 'clientHeight']) Reflect.deleteProperty(HTMLElement.prototype, property);
    }
  }, 40_000);

  it('a pin the keyboard is moving stays where the keyboard put it, and keeps moving, when the pins are drawn again meanwhile', async () => {
    try {
      const { moved: seal, viewer, placeOf, pinOf, otherMovedElsewhere: gaugeMovedElsewhere } = await openSheetWithTwoPins('Weir', 'Crest', ['Seal crest joint', 'Paint gauge board']);
      const SEAL = 'Seal crest joint (Ongoing)';
      const MOVING = 'Moving Seal crest joint: the arrow keys move it (Shift: further), Enter puts it here, Escape puts it back.';
      const sealPin = await within(viewer).findByRole('button', { name: SEAL });
      act(() => sealPin.focus());
      // Two steps of 48 px to the right on this 600 px sheet, then the pins are drawn again.
      await userEvent.keyboard('{Shift>}{ArrowRight}{ArrowRight}{/Shift}');
      expect(placeOf(SEAL)).toEqual([0.66, 0.5]);
      await gaugeMovedElsewhere(0.25, 0.75);
      // The move goes on from where the keyboard put the pin, with the keyboard still on it.
      expect(placeOf(SEAL)).toEqual([0.66, 0.5]);
      expect(screen.getByText(MOVING)).toBeInTheDocument();
      expect(within(viewer).getByRole('button', { name: SEAL })).toHaveFocus();
      await userEvent.keyboard('{Shift>}{ArrowDown}{/Shift}{ArrowRight}');
      expect(placeOf(SEAL)).toEqual([0.67, 0.62]);
      expect(screen.getByText('67% across, 62% down')).toBeInTheDocument();
      await userEvent.keyboard('{Enter}');
      await waitFor(async () => expect(await pinOf(seal.id)).toMatchObject({ x: expect.closeTo(0.5 + 104 / 600, 3), y: expect.closeTo(0.5 + 48 / 400, 3) }));
      await waitFor(() => expect(within(viewer).getByRole('button', { name: SEAL })).toHaveFocus());
      expect(screen.queryByText(MOVING)).not.toBeInTheDocument();

      // Moved again and drawn again meanwhile: Escape still puts it back where it was saved, and nothing is saved.
      await userEvent.keyboard('{Shift>}{ArrowUp}{/Shift}');
      await gaugeMovedElsewhere(0.25, 0.25);
      expect(placeOf(SEAL)).toEqual([0.67, 0.5]);
      await userEvent.keyboard('{Escape}');
      expect(placeOf(SEAL)).toEqual([0.67, 0.62]);
      expect(screen.queryByText(MOVING)).not.toBeInTheDocument();
      expect(await pinOf(seal.id)).toMatchObject({ x: expect.closeTo(0.5 + 104 / 600, 3), y: expect.closeTo(0.5 + 48 / 400, 3) });
    } finally {
      unsizeViewer();
    }
  }, 40_000);

  it('a pin dragged with a pointer follows it, and is put down where the drag ends, when the pins are drawn again meanwhile', async () => {
    // What OpenSeadragon says on the console (it warns when a pin's button goes with a pointer it holds): watched, not silenced.
    const warn = vi.spyOn(console, 'warn');
    try {
      const { moved: cradle, viewer, placeOf, pinOf, otherMovedElsewhere: winchMovedElsewhere, router } = await openSheetWithTwoPins('Slipway', 'Ramp', ['Level cradle rails', 'Service winch']);
      const CRADLE = 'Level cradle rails (Ongoing)';
      // The pointer where a person's would be: on the page, which is the 600 × 400 px sheet here.
      const at = (clientX: number, clientY: number) => ({ clientX, clientY, pageX: clientX, pageY: clientY });
      // One pointer throughout: pressed, moved, the pins drawn again, moved on and let go.
      const user = userEvent.setup();
      const pressed = await within(viewer).findByRole('button', { name: CRADLE });
      await user.pointer([
        { keys: '[MouseLeft>]', target: pressed, coords: at(300, 200) },
        { target: pressed, coords: at(330, 220) },
      ]);
      expect(placeOf(CRADLE)).toEqual([0.55, 0.55]);
      await winchMovedElsewhere(0.25, 0.75);
      // Drawn again under the pointer, and the drag goes on from there.
      expect(placeOf(CRADLE)).toEqual([0.55, 0.55]);
      const drawn = within(viewer).getByRole('button', { name: CRADLE });
      await user.pointer([{ target: drawn, coords: at(360, 240) }]);
      expect(placeOf(CRADLE)).toEqual([0.6, 0.6]);
      await user.pointer([{ keys: '[/MouseLeft]', target: drawn, coords: at(360, 240) }]);
      await waitFor(async () => expect(await pinOf(cradle.id)).toMatchObject({ x: expect.closeTo(0.6, 3), y: expect.closeTo(0.6, 3) }));
      await waitFor(() => expect(placeOf(CRADLE)).toEqual([0.6, 0.6]));
      // Drawn again mid-drag, the pin's button went with the drag going on, and nothing was wrong.
      expect(warn).not.toHaveBeenCalled();
      const opened = () => new URLSearchParams(router.state.location.search).get('subtask');
      // A drag opens nothing.
      expect(opened()).toBeNull();

      // The buttons the pin was drawn as before are off the page and do nothing any more; the one drawn now opens its subtask.
      const tap = (button: HTMLElement) => {
        const pointer = { pointerId: 2, pointerType: 'mouse', isPrimary: true, button: 0, ...at(360, 240) };
        fireEvent.pointerOver(button, { ...pointer, buttons: 0 });
        fireEvent.pointerEnter(button, { ...pointer, buttons: 0 });
        fireEvent.pointerDown(button, { ...pointer, buttons: 1 });
        fireEvent.pointerUp(button, { ...pointer, buttons: 0 });
      };
      for (const gone of [pressed, drawn]) {
        expect(gone).not.toBeInTheDocument();
        tap(gone);
      }
      expect(opened()).toBeNull();
      tap(within(viewer).getByRole('button', { name: CRADLE }));
      await waitFor(() => expect(opened()).toBe(String(cradle.id)));
    } finally {
      warn.mockRestore();
      unsizeViewer();
    }
  }, 40_000);

  it('a pin the keys moved and a pointer then drags keeps both moves: saved where the drag ends, or back where the keys put it', async () => {
    try {
      const { moved: seal, viewer, placeOf, pinOf, otherMovedElsewhere: boardMovedElsewhere } = await openSheetWithTwoPins('Canal Lock', 'Sill', ['Seal sill joint', 'Paint tide board']);
      const SEAL = 'Seal sill joint (Ongoing)';
      const MOVING = 'Moving Seal sill joint: the arrow keys move it (Shift: further), Enter puts it here, Escape puts it back.';
      const mouse = (buttons: number, clientX: number, clientY: number) => ({ pointerId: 1, pointerType: 'mouse', isPrimary: true, button: 0, buttons, clientX, clientY, pageX: clientX, pageY: clientY });
      const sealPin = await within(viewer).findByRole('button', { name: SEAL });
      act(() => sealPin.focus());
      // Two steps of 48 px to the right, then a drag of the pin from there that the system cancels, with the pins drawn again meanwhile.
      await userEvent.keyboard('{Shift>}{ArrowRight}{ArrowRight}{/Shift}');
      expect(placeOf(SEAL)).toEqual([0.66, 0.5]);
      const pressed = within(viewer).getByRole('button', { name: SEAL });
      fireEvent.pointerDown(pressed, mouse(1, 396, 200));
      fireEvent.pointerMove(pressed, mouse(1, 426, 220));
      expect(placeOf(SEAL)).toEqual([0.71, 0.55]);
      await boardMovedElsewhere(0.25, 0.75);
      expect(placeOf(SEAL)).toEqual([0.71, 0.55]);
      fireEvent.pointerCancel(within(viewer).getByRole('button', { name: SEAL }), mouse(0, 426, 220));
      // The drag is undone, not the keys' move: the pin is where they put it, and they still move it, across another drawing too.
      expect(placeOf(SEAL)).toEqual([0.66, 0.5]);
      expect(screen.getByText(MOVING)).toBeInTheDocument();
      await boardMovedElsewhere(0.25, 0.25);
      expect(placeOf(SEAL)).toEqual([0.66, 0.5]);
      expect(within(viewer).getByRole('button', { name: SEAL })).toHaveFocus();
      await userEvent.keyboard('{ArrowDown}');
      expect(placeOf(SEAL)).toEqual([0.66, 0.52]);

      // Dragged on from there and let go: saved with both moves, and the keys' move is over (Escape takes the pin nowhere).
      const dragged = within(viewer).getByRole('button', { name: SEAL });
      fireEvent.pointerDown(dragged, mouse(1, 396, 208));
      fireEvent.pointerMove(dragged, mouse(1, 426, 228));
      fireEvent.pointerUp(dragged, mouse(0, 426, 228));
      expect(screen.queryByText(MOVING)).not.toBeInTheDocument();
      await waitFor(async () => expect(await pinOf(seal.id)).toMatchObject({ x: expect.closeTo(0.5 + 126 / 600, 3), y: expect.closeTo(0.5 + 28 / 400, 3) }));
      await userEvent.keyboard('{Escape}');
      await boardMovedElsewhere(0.25, 0.75);
      expect(placeOf(SEAL)).toEqual([0.71, 0.57]);
      expect(await pinOf(seal.id)).toMatchObject({ x: expect.closeTo(0.5 + 126 / 600, 3), y: expect.closeTo(0.5 + 28 / 400, 3) });
    } finally {
      unsizeViewer();
    }
  }, 40_000);

  it('a drag whose release is lost after the pins are drawn again puts the pin back, saves nothing, and the next press drags again', async () => {
    try {
      const { moved: cradle, viewer, placeOf, pinOf, otherMovedElsewhere: winchMovedElsewhere } = await openSheetWithTwoPins('Dry Dock', 'Gate', ['Grease gate seals', 'Test gate pump']);
      const SEALS = 'Grease gate seals (Ongoing)';
      const at = (clientX: number, clientY: number) => ({ clientX, clientY, pageX: clientX, pageY: clientY });
      const mouse = (id: number, buttons: number, clientX: number, clientY: number) => ({ pointerId: id, pointerType: 'mouse', isPrimary: true, button: buttons ? 0 : -1, buttons, ...at(clientX, clientY) });
      // Pressed and moved; the pins are drawn again, so the button that was pressed is gone.
      const pressed = await within(viewer).findByRole('button', { name: SEALS });
      fireEvent.pointerDown(pressed, { ...mouse(1, 1, 300, 200), button: 0 });
      fireEvent.pointerMove(pressed, mouse(1, 1, 330, 220));
      expect(placeOf(SEALS)).toEqual([0.55, 0.55]);
      await winchMovedElsewhere(0.25, 0.75);
      expect(placeOf(SEALS)).toEqual([0.55, 0.55]);
      // Let go outside the window: the release never comes, and the mouse comes back with its button up.
      fireEvent.pointerMove(document.body, mouse(1, 0, 390, 260));
      // The drag is over: the pin is back where it is saved, and hovering takes it nowhere.
      expect(placeOf(SEALS)).toEqual([0.5, 0.5]);
      fireEvent.pointerMove(document.body, mouse(1, 0, 420, 280));
      expect(placeOf(SEALS)).toEqual([0.5, 0.5]);
      expect(await pinOf(cradle.id)).toMatchObject({ x: 0.5, y: 0.5 });

      // A new press on the pin drags it again, and the window losing the focus mid-drag puts it back too.
      const again = within(viewer).getByRole('button', { name: SEALS });
      fireEvent.pointerDown(again, { ...mouse(1, 1, 300, 200), button: 0 });
      fireEvent.pointerMove(again, mouse(1, 1, 360, 240));
      expect(placeOf(SEALS)).toEqual([0.6, 0.6]);
      act(() => {
        window.dispatchEvent(new FocusEvent('blur'));
      });
      expect(placeOf(SEALS)).toEqual([0.5, 0.5]);
      fireEvent.pointerMove(document.body, mouse(1, 1, 390, 260));
      expect(placeOf(SEALS)).toEqual([0.5, 0.5]);

      // And one let go is saved where it ends.
      const third = within(viewer).getByRole('button', { name: SEALS });
      fireEvent.pointerDown(third, { ...mouse(1, 1, 300, 200), button: 0 });
      fireEvent.pointerMove(third, mouse(1, 1, 330, 220));
      fireEvent.pointerUp(third, { ...mouse(1, 0, 330, 220), button: 0 });
      await waitFor(async () => expect(await pinOf(cradle.id)).toMatchObject({ x: expect.closeTo(0.55, 3), y: expect.closeTo(0.55, 3) }));
    } finally {
      unsizeViewer();
    }
  }, 40_000);
});

/** jsdom lays nothing out: the viewer is given the size of the 600 × 400 px sheets here, a pixel of the page a pixel of the sheet. */
function sizeViewer() {
  const size = (value: number) => ({ configurable: true, get: () => value });
  Object.defineProperties(HTMLElement.prototype, { clientWidth: size(600), clientHeight: size(400) });
}
function unsizeViewer() {
  for (const property of ['clientWidth', 'clientHeight']) Reflect.deleteProperty(HTMLElement.prototype, property);
}

/**
 * A running project's plain 600 × 400 px sheet with two subtasks pinned on it, the one to be moved in the middle and the
 * other a quarter across and down, opened by the project's manager in a viewer as large as the sheet.
 */
async function openSheetWithTwoPins(projectName: string, taskName: string, [movedName, otherName]: [string, string]) {
  const site = await insertProject(server.database.db, manager.companyId, { managerId: manager.id, name: projectName, startDate: '2025-01-01', endDate: '2099-12-31' });
  const task = await insertMajorTask(server.database.db, manager.companyId, site.id, { name: taskName });
  const add = (name: string) => insertSubtask(server.database.db, { companyId: manager.companyId, majorTaskId: task.id, assignedToId: member.id, assignedById: manager.id, name, dueDate: '2090-05-01' });
  const [moved, other] = [await add(movedName), await add(otherName)];
  await server.signIn(manager);
  const upload = new FormData();
  upload.append('file', new File([new Uint8Array(await sharp({ create: { width: 600, height: 400, channels: 3, background: '#ffffff' } }).png().toBuffer())], `${projectName}.png`, { type: 'image/png' }));
  const [sheet] = await api<Sheet[]>(`/api/projects/${site.id}/sheets/`, { method: 'POST', body: upload });
  await waitFor(async () => expect((await api<Sheet>(`/api/sheets/${sheet!.id}/`)).status).toBe('ready'), { timeout: 20_000 });
  const pinAt = (id: number, x: number, y: number) => api<Subtask>(`/api/subtasks/${id}/`, { method: 'PATCH', body: { pin: { sheet_id: sheet!.id, x, y } } });
  await pinAt(moved.id, 0.5, 0.5);
  await pinAt(other.id, 0.25, 0.25);
  const pinOf = async (id: number) => (await api<SheetPin[]>(`/api/sheets/${sheet!.id}/pins/`)).find((pin) => pin.subtask_id === id);

  sizeViewer();
  const { queryClient, router } = renderScreen(<DrawingsPage projectsQuery={projectsQuery} />, { path: `/manager/drawings?project=${site.id}&sheet=${sheet!.id}`, route: '/manager/drawings' });
  const viewer = await screen.findByTestId('sheet-viewer');
  // Where a pin is drawn, relative to the sheet's width and height (OpenSeadragon places overlays in viewport units).
  const placeOf = (name: string) => {
    const { location } = OpenSeadragon.getViewer(viewer).getOverlayById(within(viewer).getByRole('button', { name })) as unknown as { location: OpenSeadragon.Point };
    return [Number(location.x.toFixed(2)), Number(((location.y * 600) / 400).toFixed(2))];
  };
  /** Someone else moves the other pin; the push that says so reloads the pins (lib/realtime.ts), and they are drawn again. */
  const otherMovedElsewhere = async (x: number, y: number) => {
    await pinAt(other.id, x, y);
    await act(() => invalidateAfterSubtaskChange(queryClient));
    await waitFor(() => expect(placeOf(`${otherName} (Ongoing)`)).toEqual([x, y]));
  };
  return { moved, viewer, placeOf, pinOf, otherMovedElsewhere, router };
}
