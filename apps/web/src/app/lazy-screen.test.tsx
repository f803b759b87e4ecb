import { render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { usePrefetchWhenIdle } from './lazy-screen';

function Area({ path }: { path: string }) {
  usePrefetchWhenIdle(path);
  return <h1>Dashboard</h1>;
}

const prefetchLinks = () => [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')];
const arrive = (links: HTMLLinkElement[]) => links.forEach((link) => link.dispatchEvent(new Event('load')));

afterEach(() => {
  delete window.__siteboardNextScreens;
  for (const link of prefetchLinks()) link.remove();
});

describe("an area's next screens", () => {
  it('are fetched when idle without being run, one screen at a time, each file once', async () => {
    window.__siteboardNextScreens = {
      '/manager': [
        ['/assets/projects-1.js', '/assets/table-1.js'],
        ['/assets/create-task-1.js', '/assets/table-1.js', '/assets/zod-1.js'],
      ],
      '/admin': [['/assets/create-user-1.js']],
    };
    render(<Area path="/manager" />);

    // The first screen's files, preloaded as modules (fetched and compiled, not run): nothing of another area's.
    await waitFor(() => expect(prefetchLinks().map((link) => link.getAttribute('href'))).toEqual(['/assets/projects-1.js', '/assets/table-1.js']));
    for (const link of prefetchLinks()) expect(link.crossOrigin).toBe('');
    // Nothing more until those have arrived.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(prefetchLinks()).toHaveLength(2);

    arrive(prefetchLinks());
    // The next screen's files that were not fetched already.
    await waitFor(() => expect(prefetchLinks().map((link) => link.getAttribute('href'))).toEqual(['/assets/projects-1.js', '/assets/table-1.js', '/assets/create-task-1.js', '/assets/zod-1.js']));
    expect(document.querySelectorAll('script[src]')).toHaveLength(0);
  });

  it('are not fetched where the build left no list (the dev server)', async () => {
    render(<Area path="/manager" />);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(prefetchLinks()).toHaveLength(0);
  });
});
