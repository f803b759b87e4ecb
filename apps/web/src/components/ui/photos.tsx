import { photoPickRefusal, type Attachment } from '@siteboard/shared';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadOnApproach, preloadableLazy } from '../../lib/preloadable-lazy';
import { useAuthorizedImage } from '../../lib/use-authorized-image';
import { useNearViewport } from '../../lib/use-near-viewport';
import { useMessageText } from '../../lib/use-message-text';
import { Alert } from './alert';
import { LazyPart } from './lazy-part';

// The viewer (the modal, Radix's dialog) loads when a thumbnail is pointed at, focused or first opened:
// the lists that show photos, the manager's approvals among them, draw without it (decision record 099).
const { Component: PhotoViewer, load: loadViewer } = preloadableLazy(() => import('./photo-viewer').then((module) => module.PhotoViewer));

/** How many thumbnails a strip shows; the rest are one "+n" tile that opens the viewer at the next. */
export const STRIP_THUMBNAILS = 8;

/**
 * The button's name says which photo and what it shows ("Open photo 2 of 5: Pour slab"), and the
 * image in it is only what the button looks like (alt ""): a screen reader hears the subject once,
 * and before the image loads (it loads near the viewport) the button is named all the same.
 */
function Thumbnail({ photo, label, caption, tileCaption, onOpen }: { photo: Attachment; label: string; caption: string | null; tileCaption: string | null; onOpen: () => void }) {
  const button = useRef<HTMLButtonElement>(null);
  const captionId = useId();
  const src = useAuthorizedImage(useNearViewport(button) ? photo.thumbnail_url : undefined);
  const thumbnail = (
    <button ref={button} type="button" onClick={onOpen} {...loadOnApproach(loadViewer)} aria-label={label} aria-describedby={caption ? captionId : undefined} className="h-16 w-16 shrink-0 overflow-hidden rounded-lg bg-slate-100 ring-1 ring-slate-200 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600">
      {src && <img src={src} alt="" className="h-full w-full object-cover" />}
    </button>
  );
  if (!caption) return thumbnail;
  return (
    <div className="w-16 shrink-0 space-y-1">
      {thumbnail}
      {tileCaption && tileCaption !== caption ? (
        <>
          <p aria-hidden="true" className="text-xs font-medium leading-tight text-slate-700">
            {tileCaption}
          </p>
          <span id={captionId} hidden>
            {caption}
          </span>
        </>
      ) : (
        <p id={captionId} className="text-xs font-medium leading-tight text-slate-700">
          {caption}
        </p>
      )}
    </div>
  );
}

/**
 * A row of thumbnails; each opens the photos full size in a viewer that steps through them. `subject`
 * is what the photos show (a task's name, a daily log's date): each thumbnail's button, the "+n"
 * tile and the viewer's title name it. `caption`: a line under a photo's thumbnail that its button
 * is described by, and under the photo in the viewer (a moved photo's day, record 123);
 * `tileCaption`, when given, is the shorter form shown under the 64-px thumbnail instead (the
 * button is still described by the caption in full).
 */
export function PhotoStrip<P extends Attachment>({ photos, subject, caption, tileCaption }: { photos: P[]; subject: string; caption?: (photo: P) => string | null; tileCaption?: (photo: P) => string | null }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<number | null>(null);
  // Mounted from the first opening on, so that closing it is the viewer's own (animated, focus-returning) close.
  const [mounted, setMounted] = useState(false);
  if (photos.length === 0) return null;
  const captions = photos.map((photo) => caption?.(photo) ?? null);
  return (
    <>
      <div className="flex flex-wrap gap-2">
        {photos.slice(0, STRIP_THUMBNAILS).map((photo, index) => (
          <Thumbnail
            key={photo.id}
            photo={photo}
            label={t('record.photos.open', { index: index + 1, count: photos.length, subject })}
            caption={captions[index] ?? null}
            tileCaption={(captions[index] && tileCaption?.(photo)) ?? null}
            onOpen={() => {
              setMounted(true);
              setOpen(index);
            }}
          />
        ))}
        {photos.length > STRIP_THUMBNAILS && (
          <button
            type="button"
            {...loadOnApproach(loadViewer)}
            onClick={() => {
              setMounted(true);
              setOpen(STRIP_THUMBNAILS);
            }}
            aria-label={t('record.photos.more', { count: photos.length - STRIP_THUMBNAILS, index: STRIP_THUMBNAILS + 1, total: photos.length, subject })}
            className="flex h-16 w-16 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-sm font-semibold text-slate-700 ring-1 ring-slate-200 hover:bg-slate-200 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
          >
            +{photos.length - STRIP_THUMBNAILS}
          </button>
        )}
      </div>
      {mounted && (
        <LazyPart>
          <PhotoViewer photos={photos} subject={subject} captions={captions} open={open} onOpen={setOpen} />
        </LazyPart>
      )}
    </>
  );
}

/** What the camera (on a phone) or the file picker offers: the kinds the server takes. */
export const PHOTO_ACCEPT = 'image/jpeg,image/png,image/webp,image/heic,image/heif,.heic,.heif';

const pickerClasses =
  'cursor-pointer items-center gap-2 rounded-lg bg-white px-4 py-2 text-sm font-semibold text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50 focus-within:ring-2 focus-within:ring-brand-600';

/**
 * "Add photos": on a phone "Take photo" opens the camera, and "Add photos" the gallery or file
 * picker, several at once. A file that is no photo the app keeps, or too large, is refused as it is
 * picked, with the reason, rather than after a send (the shared rule; the server checks the bytes).
 */
export function PhotoPicker({ onPick, disabled }: { onPick: (files: File[]) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const [refused, setRefused] = useState<string[]>([]);
  const pick = (files: File[]) => {
    const photos: File[] = [];
    const refusals: string[] = [];
    for (const file of files) {
      const refusal = photoPickRefusal(file);
      if (refusal) refusals.push(t('record.photos.failed', { name: file.name, detail: messageText(refusal) }));
      else photos.push(file);
    }
    setRefused(refusals);
    if (photos.length > 0) onPick(photos);
  };
  const input = (camera: boolean) => (
    <input
      type="file"
      accept={PHOTO_ACCEPT}
      capture={camera ? 'environment' : undefined}
      multiple={!camera}
      disabled={disabled}
      className="sr-only"
      onChange={(event) => {
        pick([...(event.target.files ?? [])]);
        event.target.value = '';
      }}
    />
  );
  return (
    <div className="space-y-2">
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
      {refused.length > 0 && (
        <Alert tone="error">
          {refused.map((refusal, index) => (
            <span key={index} className="block">
              {refusal}
            </span>
          ))}
        </Alert>
      )}
    </div>
  );
}
