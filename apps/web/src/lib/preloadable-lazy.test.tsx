import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { preloadableLazy } from './preloadable-lazy';

const screenCode = () => Promise.resolve(() => <h1>Projects</h1>);

describe('a lazily loaded component', () => {
  it('shows its fallback while its code loads, then itself', async () => {
    const { Component } = preloadableLazy(screenCode);
    render(
      <Suspense fallback={<p>Loading...</p>}>
        <Component />
      </Suspense>,
    );
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Projects' })).toBeInTheDocument();
  });

  it('draws at once, with no fallback first, once its code was loaded ahead of time', async () => {
    const { Component, load } = preloadableLazy(screenCode);
    await load();
    render(
      <Suspense fallback={<p>Loading...</p>}>
        <Component />
      </Suspense>,
    );
    expect(screen.getByRole('heading', { name: 'Projects' })).toBeInTheDocument();
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
  });

  it('downloads its code once however often it is loaded', async () => {
    let downloads = 0;
    const { load } = preloadableLazy(() => {
      downloads += 1;
      return screenCode();
    });
    await Promise.all([load(), load()]);
    await load();
    expect(downloads).toBe(1);
  });
});
