import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The hard hat over a checked list, drawn inline: it paints with the header instead of waiting for
 * an image request that only starts once the screen has rendered (on a phone's connection, that
 * request held the dashboard's first paint). Gradient ids are per instance.
 */
function LogoMark() {
  // useId's own characters (":" or "«»") are kept out of the url(#…) references.
  const id = `logo${useId().replace(/[^\w-]/g, '')}`;
  const background = `${id}bg`;
  const hat = `${id}hat`;
  return (
    <svg viewBox="0 0 512 512" width={32} height={32} className="h-8 w-8" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={background} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#1e293b" />
          <stop offset="1" stopColor="#0f172a" />
        </linearGradient>
        <linearGradient id={hat} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#fb923c" />
          <stop offset="1" stopColor="#ea580c" />
        </linearGradient>
      </defs>
      <rect width="512" height="512" rx="112" fill={`url(#${background})`} />
      <g transform="translate(0 -14)">
        <path d="M124 272c0-76 58-132 132-132s132 56 132 132z" fill={`url(#${hat})`} />
        <path d="M230 142.5q26-5 52 0l10 129.5h-72z" fill="#fdba74" />
        <path d="M164 196q-14 34-12 76M348 196q14 34 12 76" fill="none" stroke="#fdba74" strokeOpacity=".45" strokeWidth="10" strokeLinecap="round" />
        <rect x="88" y="262" width="336" height="40" rx="20" fill="#f59e0b" />
        <circle cx="158" cy="354" r="20" fill="#0ea5e9" />
        <path d="M148 354l7 7 13-14" fill="none" stroke="#fff" strokeWidth="6" strokeLinecap="round" strokeLinejoin="round" />
        <rect x="192" y="342" width="190" height="24" rx="12" fill="#0ea5e9" />
        <circle cx="158" cy="410" r="20" fill="none" stroke="#64748b" strokeWidth="6" />
        <rect x="192" y="398" width="130" height="24" rx="12" fill="#475569" />
      </g>
    </svg>
  );
}

export function Logo({ className = '', light = false }: { className?: string; light?: boolean }) {
  const { t } = useTranslation();
  return (
    <span className={`inline-flex items-center gap-2 font-bold tracking-tight ${light ? 'text-white' : 'text-ink'} ${className}`}>
      <LogoMark />
      <span className="text-lg">{t('app.name')}</span>
    </span>
  );
}
