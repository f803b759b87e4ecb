import type { Attachment } from '@siteboard/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button';
import { Modal } from './modal';
import { useAuthorizedImage } from '../../lib/use-authorized-image';

function Thumbnail({ photo, label, onOpen }: { photo: Attachment; label: string; onOpen: () => void }) {
  const src = useAuthorizedImage(photo.thumbnail_url);
  return (
    <button type="button" onClick={onOpen} aria-label={label} className="h-16 w-16 shrink-0 overflow-hidden rounded-lg bg-slate-100 ring-1 ring-slate-200 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600">
      {src && <img src={src} alt="" className="h-full w-full object-cover" />}
    </button>
  );
}

function FullPhoto({ photo }: { photo: Attachment }) {
  const { t } = useTranslation();
  const src = useAuthorizedImage(photo.url);
  if (!src) return <p className="p-6 text-center text-sm text-slate-500" role="status">{t('record.photos.loading')}</p>;
  return <img src={src} alt="" width={photo.width} height={photo.height} className="mx-auto max-h-[70dvh] w-auto max-w-full rounded-lg object-contain" />;
}

/** A row of thumbnails; each opens the photos full size in a viewer that steps through them. */
export function PhotoStrip({ photos }: { photos: Attachment[] }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<number | null>(null);
  if (photos.length === 0) return null;
  const current = open === null ? undefined : photos[open];
  return (
    <>
      <div className="flex flex-wrap gap-2">
        {photos.map((photo, index) => (
          <Thumbnail key={photo.id} photo={photo} label={t('record.photos.open', { index: index + 1 })} onOpen={() => setOpen(index)} />
        ))}
      </div>
      <Modal open={current !== undefined} onOpenChange={(next) => !next && setOpen(null)} title={t('record.photos.viewer', { index: (open ?? 0) + 1, count: photos.length })}>
        {current && (
          <div className="space-y-3">
            <FullPhoto photo={current} />
            {photos.length > 1 && (
              <div className="flex justify-between gap-3">
                <Button variant="secondary" disabled={open === 0} onClick={() => setOpen((index) => (index ?? 1) - 1)}>
                  {t('record.photos.previous')}
                </Button>
                <Button variant="secondary" disabled={open === photos.length - 1} onClick={() => setOpen((index) => (index ?? 0) + 1)}>
                  {t('record.photos.next')}
                </Button>
              </div>
            )}
          </div>
        )}
      </Modal>
    </>
  );
}

/** What the camera (on a phone) or the file picker offers: the kinds the server takes. */
export const PHOTO_ACCEPT = 'image/jpeg,image/png,image/webp,image/heic,image/heif,.heic,.heif';

const pickerClasses =
  'cursor-pointer items-center gap-2 rounded-lg bg-white px-4 py-2 text-sm font-semibold text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50 focus-within:ring-2 focus-within:ring-brand-600';

/**
 * "Add photos": on a phone "Take photo" opens the camera, and "Add photos" the gallery or file
 * picker, several at once.
 */
export function PhotoPicker({ onPick, disabled }: { onPick: (files: File[]) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const input = (camera: boolean) => (
    <input
      type="file"
      accept={PHOTO_ACCEPT}
      capture={camera ? 'environment' : undefined}
      multiple={!camera}
      disabled={disabled}
      className="sr-only"
      onChange={(event) => {
        onPick([...(event.target.files ?? [])]);
        event.target.value = '';
      }}
    />
  );
  return (
    <div className={`flex flex-wrap gap-2 ${disabled ? 'pointer-events-none opacity-50' : ''}`}>
      <label className={`hidden pointer-coarse:inline-flex ${pickerClasses}`}>
        {t('record.photos.takePhoto')}
        {input(true)}
      </label>
      <label className={`inline-flex ${pickerClasses}`}>
        {t('record.photos.add')}
        {input(false)}
      </label>
    </div>
  );
}
