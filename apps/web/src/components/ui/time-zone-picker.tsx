import { canonicalTimeZone, localeTag, searchTimeZones, timeZoneChoices, timeZoneLabel, type TimeZoneChoice } from '@siteboard/shared';
import { useCombobox } from 'downshift';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMessageText } from '../../lib/use-message-text';

/** What a screen reader says of an option: "Kolkata, India, UTC+05:30, India Standard Time". */
function spokenOf(choice: TimeZoneChoice): string {
  return [choice.city, choice.country, choice.offset, choice.name].filter(Boolean).join(', ');
}

/**
 * The one time-zone field (sign-up, profile, company settings): an accessible combobox (downshift,
 * ARIA 1.2) over the canonical IANA zones only, each with its city, country and name in the
 * reader's language and today's offset. Typing narrows the list by city, country or region (in the
 * reader's language or English), zone name or offset ("+5:30", "UTC-3"); arrows, Enter and Escape
 * work as in any list box. A zone stored under an old name (Asia/Calcutta) shows as today's (Kolkata).
 */
export function TimeZonePicker({
  label,
  value,
  onChange,
  error,
  hint,
  listInFlow = false,
}: {
  label: string;
  value: string;
  onChange: (zone: string) => void;
  error?: string;
  hint?: string;
  /**
   * The list opens in the flow, pushing what follows down, instead of over it: in a dialog, whose
   * scrolling body would cut a list laid over it to its own height (a phone showed one zone of twelve).
   */
  listInFlow?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const messageText = useMessageText();
  // Region names and their order as the page's language's tag writes them (Mexico's for Spanish).
  const locale = localeTag(i18n.language || 'en');
  const all = useMemo(() => timeZoneChoices(locale), [locale]);
  const selected = useMemo(() => all.find((choice) => choice.zone === (canonicalTimeZone(value) ?? value)) ?? null, [all, value]);
  const [query, setQuery] = useState<string | null>(null);
  const items = useMemo(() => (query === null ? all : searchTimeZones(all, query, locale)), [all, query, locale]);

  const { isOpen, highlightedIndex, getLabelProps, getInputProps, getMenuProps, getItemProps, getToggleButtonProps } = useCombobox<TimeZoneChoice>({
    items,
    selectedItem: selected,
    itemToString: (choice) => (choice ? timeZoneLabel(choice) : ''),
    itemToKey: (choice) => choice?.zone,
    // Typing searches; choosing (or leaving) shows the chosen zone's label again.
    inputValue: query ?? (selected ? timeZoneLabel(selected) : value),
    onInputValueChange: ({ inputValue, type }) => {
      if (type === useCombobox.stateChangeTypes.InputChange) setQuery(inputValue);
    },
    onSelectedItemChange: ({ selectedItem }) => {
      setQuery(null);
      if (selectedItem) onChange(selectedItem.zone);
    },
    // Leaving the field or pressing Escape drops the search, never the choice.
    onStateChange: ({ type }) => {
      if (type === useCombobox.stateChangeTypes.InputBlur || type === useCombobox.stateChangeTypes.InputKeyDownEscape) setQuery(null);
    },
    stateReducer: (state, { type, changes }) =>
      type === useCombobox.stateChangeTypes.InputKeyDownEscape || type === useCombobox.stateChangeTypes.InputBlur ? { ...changes, selectedItem: state.selectedItem } : changes,
  });

  const describedBy = error ? 'error' : hint ? 'hint' : undefined;
  // Focused, the chosen zone's label is selected, so typing searches afresh.
  const inputProps = getInputProps({ onFocus: (event) => event.currentTarget.select() });
  return (
    <div className="relative space-y-1">
      <label {...getLabelProps()} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="flex items-stretch">
        <input
          {...inputProps}
          placeholder={t('timeZone.searchPlaceholder')}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy && `${inputProps.id}-${describedBy}`}
          className={`block w-full min-w-0 rounded-l-lg border bg-white px-3 py-2 text-sm shadow-sm placeholder:text-slate-500 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 ${error ? 'border-red-500' : 'border-slate-300'}`}
        />
        <button
          type="button"
          {...getToggleButtonProps()}
          aria-label={t('timeZone.toggle')}
          className="flex w-11 shrink-0 items-center justify-center rounded-r-lg border border-l-0 border-slate-300 bg-white text-slate-600 hover:bg-slate-50 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className={`h-4 w-4 transition-transform ${isOpen ? 'rotate-180' : ''}`} fill="currentColor">
            <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4Z" />
          </svg>
        </button>
      </div>
      <ul
        {...getMenuProps()}
        className={`${listInFlow ? 'max-h-60' : 'absolute inset-x-0 top-full z-30 max-h-72 shadow-lg'} mt-1 overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 ${isOpen && items.length > 0 ? '' : 'hidden'}`}
      >
        {isOpen &&
          items.map((choice, index) => (
            <li
              key={choice.zone}
              {...getItemProps({ item: choice, index })}
              aria-label={spokenOf(choice)}
              className={`cursor-pointer px-3 py-2 text-sm ${highlightedIndex === index ? 'bg-brand-50' : ''} ${selected?.zone === choice.zone ? 'font-semibold' : ''}`}
            >
              <span className="flex flex-wrap items-baseline justify-between gap-x-3">
                <span className="break-words text-ink">{choice.country ? `${choice.city}, ${choice.country}` : choice.city}</span>
                <span className="shrink-0 tabular-nums text-slate-600">{choice.offset}</span>
              </span>
              {choice.name && <span className="block break-words text-xs font-normal text-slate-500">{choice.name}</span>}
            </li>
          ))}
      </ul>
      <p className="text-xs text-slate-500 empty:hidden" aria-live="polite">
        {isOpen && query !== null && query.trim() !== '' ? (items.length === 0 ? t('timeZone.noMatch') : t('timeZone.matches', { count: items.length })) : null}
      </p>
      {hint && !error && (
        <p id={`${inputProps.id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${inputProps.id}-error`} role="alert" className="text-sm text-red-700">
          {messageText(error)}
        </p>
      )}
    </div>
  );
}
