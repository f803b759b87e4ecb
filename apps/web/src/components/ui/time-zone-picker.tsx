import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField, TextField } from './form-field';

let zones: { value: string; label: string; search: string }[] | null = null;

/** "UTC+05:30" for a zone, as it stands today. */
function offsetOf(zone: string): string {
  try {
    const part = new Intl.DateTimeFormat('en', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(new Date()).find((p) => p.type === 'timeZoneName');
    return part?.value === 'GMT' ? 'UTC' : (part?.value.replace('GMT', 'UTC') ?? '');
  } catch {
    return '';
  }
}

/**
 * Zones that browsers still list by a name IANA has since replaced (Unicode CLDR keeps the old
 * one as canonical): the city's name today, so that "Kolkata" or "Kyiv" finds them. The value
 * stays the browser's own name, which every runtime accepts.
 */
export const RENAMED_ZONES: Record<string, string> = {
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Europe/Kiev': 'Europe/Kyiv',
  'America/Godthab': 'America/Nuuk',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Coral_Harbour': 'America/Atikokan',
  'Pacific/Truk': 'Pacific/Chuuk',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Enderbury': 'Pacific/Kanton',
};

/** Every IANA zone this browser knows (UTC among them), with its offset today; built once. */
function allZones() {
  if (!zones) {
    const names = new Set(typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []);
    names.add('UTC');
    zones = [...names].sort().map((value) => {
      const name = (RENAMED_ZONES[value] ?? value).replaceAll('_', ' ');
      const offset = offsetOf(value);
      return { value, label: offset ? `${name} (${offset})` : name, search: `${value} ${name} ${offset}`.toLowerCase().replaceAll('_', ' ') };
    });
  }
  return zones;
}

/**
 * A search box above a dropdown of the IANA time zones: typing narrows the list (by city, region or
 * offset). The chosen zone stays in the list whatever is typed, so the choice never disappears.
 */
export function TimeZonePicker({
  label,
  value,
  onChange,
  error,
  hint,
}: {
  label: string;
  value: string;
  onChange: (zone: string) => void;
  error?: string;
  hint?: string;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const { options, found } = useMemo(() => {
    const words = search.toLowerCase().replaceAll('_', ' ').split(/\s+/).filter(Boolean);
    const all = allZones();
    const matching = (zone: { search: string }) => words.every((word) => zone.search.includes(word));
    // The chosen zone stays listed whatever is typed; the count says how many match the search.
    const shown = all.filter((zone) => zone.value === value || matching(zone));
    if (value && !all.some((zone) => zone.value === value)) shown.unshift({ value, label: value, search: value.toLowerCase() });
    return { options: shown, found: all.filter(matching).length };
  }, [search, value]);

  return (
    <div className="space-y-2">
      <TextField
        type="search"
        label={t('timeZone.search')}
        placeholder={t('timeZone.searchPlaceholder')}
        autoComplete="off"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <SelectField label={label} error={error} hint={hint} value={value} onChange={(event) => onChange(event.target.value)}>
        {!value && <option value="">{t('timeZone.choose')}</option>}
        {options.map((zone) => (
          <option key={zone.value} value={zone.value}>
            {zone.label}
          </option>
        ))}
      </SelectField>
      {search.trim() !== '' && (
        <p className="text-xs text-slate-500" aria-live="polite">
          {found === 0 ? t('timeZone.noMatch') : t('timeZone.matches', { count: found })}
        </p>
      )}
    </div>
  );
}
