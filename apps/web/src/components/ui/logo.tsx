import { useTranslation } from 'react-i18next';

export function Logo({ className = '', light = false }: { className?: string; light?: boolean }) {
  const { t } = useTranslation();
  return (
    <span className={`inline-flex items-center gap-2 font-bold tracking-tight ${light ? 'text-white' : 'text-ink'} ${className}`}>
      <img src="/images/logo.svg" alt="" width={32} height={32} className="h-8 w-8" />
      <span className="text-lg">{t('app.name')}</span>
    </span>
  );
}
