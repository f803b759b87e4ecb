import { useTranslation } from 'react-i18next';

export function LoadingScreen() {
  const { t } = useTranslation();
  return (
    <div className="fixed inset-0 flex items-center justify-center bg-slate-50" role="status" aria-live="polite">
      <div className="flex items-center gap-3 text-lg font-medium text-slate-700">
        <span className="h-5 w-5 animate-spin rounded-full border-2 border-brand-600 border-t-transparent motion-reduce:animate-none" aria-hidden />
        {t('app.loading')}
      </div>
    </div>
  );
}
