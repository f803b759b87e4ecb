import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Attachment } from '@siteboard/shared';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '../../test/render';
import { PhotoStrip, STRIP_THUMBNAILS } from './photos';

const photo = (id: number): Attachment => ({ id, content_type: 'image/jpeg', size: 1000, width: 30, height: 20, url: `/api/attachments/${id}/`, thumbnail_url: `/api/attachments/${id}/thumbnail/` });

describe('a strip of photos', () => {
  it('shows a few thumbnails and one tile for the rest, which opens the viewer at the first of them', async () => {
    renderScreen(<PhotoStrip photos={Array.from({ length: 12 }, (_, index) => photo(index + 1))} subject="Pour slab" />);
    expect(screen.getAllByRole('button', { name: /^Open photo/ })).toHaveLength(STRIP_THUMBNAILS);
    const more = screen.getByRole('button', { name: '4 more photos, from photo 9 of 12: Pour slab' });
    expect(more).toHaveTextContent('+4');

    await userEvent.click(more);
    const viewer = await screen.findByRole('dialog', { name: 'Photo 9 of 12: Pour slab' });
    await userEvent.click(within(viewer).getByRole('button', { name: 'Next photo' }));
    expect(await screen.findByRole('dialog', { name: 'Photo 10 of 12: Pour slab' })).toBeInTheDocument();
  });

  it('names what each thumbnail shows on its button, once: which photo of how many, and its subject', () => {
    renderScreen(<PhotoStrip photos={[photo(1), photo(2), photo(3)]} subject="Pour slab" />);
    expect(screen.getAllByRole('button', { name: /^Open photo/ }).map((button) => button.getAttribute('aria-label'))).toEqual([
      'Open photo 1 of 3: Pour slab',
      'Open photo 2 of 3: Pour slab',
      'Open photo 3 of 3: Pour slab',
    ]);
  });

  it('shows a photo’s caption under its thumbnail, as its button’s description, and under it in the viewer', async () => {
    renderScreen(<PhotoStrip photos={[photo(1), photo(2)]} subject="the daily log of Nov 24, 2026" caption={(shown) => (shown.id === 2 ? 'For Nov 23, 2026' : null)} />);
    const [first, second] = screen.getAllByRole('button', { name: /^Open photo/ });
    expect(first).not.toHaveAccessibleDescription();
    expect(second).toHaveAccessibleName('Open photo 2 of 2: the daily log of Nov 24, 2026');
    expect(second).toHaveAccessibleDescription('For Nov 23, 2026');
    expect(screen.getByText('For Nov 23, 2026')).toBeVisible();

    await userEvent.click(second!);
    const viewer = await screen.findByRole('dialog', { name: 'Photo 2 of 2: the daily log of Nov 24, 2026' });
    expect(within(viewer).getByText('For Nov 23, 2026')).toBeInTheDocument();
    await userEvent.click(within(viewer).getByRole('button', { name: 'Previous photo' }));
    await screen.findByRole('dialog', { name: 'Photo 1 of 2: the daily log of Nov 24, 2026' });
    expect(within(screen.getByRole('dialog')).queryByText('For Nov 23, 2026')).toBeNull();
  });

  it('shows a shorter caption under the thumbnail when one is given, and the full one as its description and in the viewer', async () => {
    renderScreen(<PhotoStrip photos={[photo(1)]} subject="the daily log of Nov 24, 2026" caption={() => 'For Nov 23, 2026'} tileCaption={() => 'For Nov 23'} />);
    const thumbnail = screen.getByRole('button', { name: 'Open photo 1 of 1: the daily log of Nov 24, 2026' });
    expect(thumbnail).toHaveAccessibleDescription('For Nov 23, 2026');
    expect(screen.getByText('For Nov 23')).toBeVisible();
    expect(screen.getByText('For Nov 23, 2026')).not.toBeVisible();

    await userEvent.click(thumbnail);
    const viewer = await screen.findByRole('dialog', { name: 'Photo 1 of 1: the daily log of Nov 24, 2026' });
    expect(within(viewer).getByText('For Nov 23, 2026')).toBeVisible();
  });

  it('shows every photo of a short strip, with no tile', () => {
    renderScreen(<PhotoStrip photos={[photo(1), photo(2)]} subject="Pour slab" />);
    expect(screen.getAllByRole('button', { name: /^Open photo/ })).toHaveLength(2);
    expect(screen.queryByRole('button', { name: /more photo/ })).toBeNull();
  });
});
