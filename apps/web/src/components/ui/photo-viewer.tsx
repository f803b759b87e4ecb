import type { Attachment } from '@siteboard/shared';
import { useTranslation } from 'react-i18next';
import { Button } from './button';
import { Modal } from './modal';
import { useAuthorizedImage } from '../../lib/use-authorized-image';

function FullPhoto({ photo }: { photo: Attachment }) {
  const { t } = useTranslation();
  const src = useAuthorizedImage(photo.url);
  if (!src) return <p className="p-6 text-center text-sm text-slate-500" role="status">{t('record.photos.loading')}</p>;
  return <img src={src} alt="" width={photo.width} height={photo.height} className="mx-auto max-h-[70dvh] w-auto max-w-full rounded-lg object-contain" />;
}

/** The photos of `subject` full size, photo `open` of them shown (none: closed) with its caption, stepping through them. */
export function PhotoViewer({ photos, subject, captions, open, onOpen }: { photos: Attachment[]; subject: string; captions?: readonly (string | null)[]; open: number | null; onOpen: (index: number | null) => void }) {
  const { t } = useTranslation();
  const current = open === null ? undefined : photos[open];
  return (
    <Modal open={current !== undefined} onOpenChange={(next) => !next && onOpen(null)} title={t('record.photos.viewer', { index: (open ?? 0) + 1, count: photos.length, subject })}>
      {current && open !== null && (
        <div className="space-y-3">
          <FullPhoto photo={current} />
          {captions?.[open] && <p className="text-center text-sm font-medium text-slate-700">{captions[open]}</p>}
          {photos.length > 1 && (
            <div className="flex justify-between gap-3">
              <Button variant="secondary" disabled={open === 0} onClick={() => onOpen(open - 1)}>
                {t('record.photos.previous')}
              </Button>
              <Button variant="secondary" disabled={open === photos.length - 1} onClick={() => onOpen(open + 1)}>
                {t('record.photos.next')}
              </Button>
            </div>
          )}
        </div>
      )}
    </Modal>
  );
}
