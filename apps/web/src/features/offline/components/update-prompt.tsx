import { useTranslation } from 'react-i18next';
import { useRegisterSW } from 'virtual:pwa-register/react';
import { Button } from '../../../components/ui/button';

/** Registers the service worker; a new build waits for the person's "Reload" rather than changing under them. */
export default function UpdatePrompt() {
  const { t } = useTranslation();
  const {
    needRefresh: [needRefresh],
    updateServiceWorker,
  } = useRegisterSW();
  if (!needRefresh) return null;
  return (
    <div role="status" className="fixed inset-x-4 bottom-4 z-50 mx-auto flex max-w-md items-center justify-between gap-3 rounded-lg bg-ink px-4 py-3 text-sm text-white shadow-lg">
      <span>{t('offline.updateAvailable')}</span>
      <Button onClick={() => void updateServiceWorker(true)}>{t('offline.reload')}</Button>
    </div>
  );
}
