import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeMatchMedia, restoreMatchMedia } from '../../test/media';
import { renderScreen } from '../../test/render';
import { PageTitle } from '../ui/page-title';
import { AdminLayout } from './admin-layout';
import { WorkLayout } from './work-layout';

/** A laptop's window: wide enough for the sidebar to fold to icons rather than slide over the page. */
beforeEach(() => fakeMatchMedia((query) => query.includes('min-width: 768px')));
afterEach(() => {
  restoreMatchMedia();
  localStorage.clear();
});

const toggle = () => screen.getByRole('button', { name: 'Toggle sidebar' });

describe.each([
  ['admin', <AdminLayout key="admin" />, 'Admin Dashboard'],
  ['manager', <WorkLayout key="manager" area="manager" />, 'Create Task'],
  ['team member', <WorkLayout key="team-member" area="team-member" />, 'My Tasks'],
])("the %s's sidebar", (_role, layout, entry) => {
  it('stays collapsed after a reload, and open again once reopened', async () => {
    const first = renderScreen(layout);
    expect(toggle()).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(toggle());
    expect(toggle()).toHaveAttribute('aria-expanded', 'false');
    // Folded to icons, each entry keeps its name for screen readers.
    expect(screen.getByText(entry)).toHaveClass('md:sr-only');
    first.unmount();

    const reloaded = renderScreen(layout);
    expect(toggle()).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByText(entry)).toHaveClass('md:sr-only');
    await userEvent.click(toggle());
    expect(toggle()).toHaveAttribute('aria-expanded', 'true');
    reloaded.unmount();

    renderScreen(layout);
    expect(toggle()).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText(entry)).not.toHaveClass('md:sr-only');
  });
});

describe('the menu on a phone, with a keyboard', () => {
  beforeEach(() => fakeMatchMedia(() => false));

  it('is out of reach while closed; opened, takes focus, keeps it, and gives it back when closed', async () => {
    renderScreen(<WorkLayout area="manager" />);
    const sidebar = screen.getByRole('navigation', { name: 'Main navigation' }).closest('aside')!;
    // Closed, it slides off the screen: no Tab lands on its links.
    expect(sidebar).toHaveAttribute('inert');
    toggle().focus();
    await userEvent.keyboard('{Enter}');
    expect(sidebar).not.toHaveAttribute('inert');
    expect(screen.getByRole('dialog', { name: 'Main navigation' })).toBe(sidebar);
    expect(sidebar).toContainElement(document.activeElement as HTMLElement);
    // The page behind is out of reach while it is open.
    expect(toggle().closest('[inert]')).not.toBeNull();

    await userEvent.keyboard('{Escape}');
    expect(sidebar).toHaveAttribute('inert');
    expect(toggle()).toHaveFocus();

    await userEvent.click(toggle());
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(sidebar).toHaveAttribute('inert');
    expect(toggle()).toHaveFocus();
  });
});

describe('moving through the signed-in pages by keyboard', () => {
  it('"Skip to content" comes first and lands on the page; a move to another page focuses its heading, the first load does not', async () => {
    const pages = [
      { index: true, element: <PageTitle>Dashboard</PageTitle> },
      { path: 'my-tasks', element: <PageTitle>My Tasks</PageTitle> },
    ];
    renderScreen(<WorkLayout area="manager" />, { path: '/manager', route: '/manager', children: pages });
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).not.toHaveFocus();

    await userEvent.tab();
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(skip).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('heading', { name: 'Dashboard' })).toHaveFocus();

    await userEvent.click(screen.getByRole('link', { name: 'My Tasks' }));
    expect(await screen.findByRole('heading', { name: 'My Tasks' })).toHaveFocus();
  });

  it('arriving in the area from the sign-in screen focuses its heading, as a move to a page does', async () => {
    const signIn = { path: '/login', element: <Link to="/manager">Log In</Link> };
    // The page's code arrives after the frame, as a lazily loaded screen's does: no heading yet when the link goes away.
    const Dashboard = lazy(async () => ({ default: () => <PageTitle>Dashboard</PageTitle> }));
    const dashboard = { index: true, element: <Suspense><Dashboard /></Suspense> };
    renderScreen(<WorkLayout area="manager" />, { path: '/login', route: '/manager', routes: [signIn], children: [dashboard] });
    await userEvent.click(await screen.findByRole('link', { name: 'Log In' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toHaveFocus();
  });
});
