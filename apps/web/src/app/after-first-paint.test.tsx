import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AfterFirstPaint } from './after-first-paint';

afterEach(() => vi.restoreAllMocks());

function HeaderTools() {
  return (
    <AfterFirstPaint placeholder={<span>Bell placeholder</span>}>
      <button type="button">Notifications</button>
    </AfterFirstPaint>
  );
}

describe('a deferred part of the screen', () => {
  it('shows its placeholder first, then itself once the screen is painted', async () => {
    render(<HeaderTools />);
    expect(screen.getByText('Bell placeholder')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(screen.queryByText('Bell placeholder')).not.toBeInTheDocument();
  });

  it('still comes when the page draws no frame (a tab in the background, a browser that stopped drawing)', async () => {
    // No animation frame is ever run, as in a hidden tab: the part must not wait for one for ever.
    const frames = vi.spyOn(window, 'requestAnimationFrame').mockImplementation(() => 0);
    render(<HeaderTools />);
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(frames).toHaveBeenCalled();
  });
});
