import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWaitingWrites, type WaitingWrite } from '../lib/waiting-writes';

/** An object URL of the blob for as long as the component shows it. */
function usePhotoUrl(photo: Blob): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const made = URL.createObjectURL(photo);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [photo]);
  return url;
}

/** What became of a write made on this device: still waiting to sync, or refused with the server's reason. */
export function WaitingStatus({ write }: { write: WaitingWrite }) {
  const { t } = useTranslation();
  const failed = write.status === 'failed';
  return <p className={`text-xs font-medium ${failed ? 'text-red-700' : 'text-amber-800'}`}>{failed ? t('offline.status.failed', { detail: write.detail ?? '' }) : t('offline.status.waiting')}</p>;
}

function WaitingPhoto({ write, label }: { write: WaitingWrite & { photo: Blob }; label: string }) {
  const url = usePhotoUrl(write.photo);
  return (
    <li className="w-28 space-y-1">
      <div className="h-20 w-28 overflow-hidden rounded-lg border border-dashed border-amber-300 bg-amber-50">{url && <img src={url} alt={label} className="h-full w-full object-cover" />}</div>
      <WaitingStatus write={write} />
    </li>
  );
}

/** The uploads to `path` (whatever their query: a moved photo's day) waiting on this device that carry a photo, oldest first. */
export function useWaitingPhotos(path: string) {
  return useWaitingWrites().filter((write): write is WaitingWrite & { photo: Blob } => write.method === 'POST' && write.path.split('?')[0] === path && write.photo !== undefined);
}

/**
 * The photos uploaded to `path` on this device that have not reached the server yet (no signal),
 * each marked as waiting (or refused, with the server's reason): a photo taken in a basement stays
 * in sight instead of seeming lost, and nobody takes it again. Each is named by `subject`, what
 * it shows, as the photos that arrived are.
 */
export function WaitingPhotos({ path, subject }: { path: string; subject: string }) {
  const { t } = useTranslation();
  const photos = useWaitingPhotos(path);
  if (photos.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-3" aria-label={t('offline.waitingPhotos', { count: photos.length })}>
      {photos.map((write, index) => (
        <WaitingPhoto key={write.id} write={write} label={t('offline.waitingPhoto', { number: index + 1, subject })} />
      ))}
    </ul>
  );
}
