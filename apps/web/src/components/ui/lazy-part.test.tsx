import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Component, useState, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { preloadableLazy } from '../../lib/preloadable-lazy';
import { renderScreen } from '../../test/render';
import { LazyPart } from './lazy-part';

describe('a part whose code is loaded on first use', () => {
  it('says in place that it has not reached the device when its code cannot be fetched, and Retry fetches it again', async () => {
    let reachable = false;
    // What a dynamic import does without a signal: it rejects; with one, it gives the module.
    const { Component: Part } = preloadableLazy(async () => {
      if (!reachable) throw new TypeError('Failed to fetch dynamically imported module: /assets/part.js');
      return () => <p>The part</p>;
    });
    function Screen() {
      const [shown, setShown] = useState(false);
      return (
        <main>
          <h1>My Tasks</h1>
          <button type="button" onClick={() => setShown(true)}>
            Open
          </button>
          {shown && (
            <LazyPart>
              <Part />
            </LazyPart>
          )}
        </main>
      );
    }
    renderScreen(<Screen />);
    await userEvent.click(await screen.findByRole('button', { name: 'Open' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This part of SiteBoard has not reached this device yet. Try again when you have a signal.');
    expect(screen.getByRole('heading', { name: 'My Tasks' })).toBeInTheDocument();

    reachable = true;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('The part')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('leaves a part whose code failed as it ran to the screen: it is no missing signal', async () => {
    const { Component: Part } = preloadableLazy(async (): Promise<() => ReactNode> => {
      throw new Error('Cannot read the drawing');
    });
    class ScreenFailure extends Component<{ children: ReactNode }, { failed: boolean }> {
      state = { failed: false };
      static getDerivedStateFromError() {
        return { failed: true };
      }
      render() {
        return this.state.failed ? <p>The screen failed</p> : this.props.children;
      }
    }
    renderScreen(
      <ScreenFailure>
        <LazyPart>
          <Part />
        </LazyPart>
      </ScreenFailure>,
    );
    expect(await screen.findByText('The screen failed')).toBeInTheDocument();
    expect(screen.queryByText(/has not reached this device/)).toBeNull();
  });
});
