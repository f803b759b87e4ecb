import { useTranslation } from 'react-i18next';
import { Button } from './button';

/** Says that a form's input is kept on this device (or was brought back), with the way to throw it away. */
export function DraftNotice({ restored, onDiscard }: { restored: boolean; onDiscard: () => void }) {
  const { t } = useTranslation();
  return (
    <div role="status" className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-sky-800">
      <span className="min-w-0 break-words">{t(restored ? 'drafts.restored' : 'drafts.kept')}</span>
      <Button variant="secondary" onClick={onDiscard}>
        {t('drafts.discard')}
      </Button>
    </div>
  );
}
