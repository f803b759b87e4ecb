import { useLayoutEffect, useRef, type Ref, type SelectHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { useListSearch, type ListSearch } from '../../lib/lists';
import { SelectField, TextField } from './form-field';

type Option = { value: number; label: string; group?: string };

type Props<T> = {
  /** The server's search: the first matches of what was typed, and how many there are in all. */
  find: ListSearch<T>;
  /** What the dropdown shows of a match, the value it stands for, and the group it is listed under (groups in the order given by `groups`). */
  toOption: (item: T) => Option;
  /** The groups' labels by key, in the order shown; without them the matches are one list. */
  groups?: readonly { key: string; label: string }[];
  searchLabel: string;
  searchPlaceholder?: string;
  /** Typing in the search box; a picker whose choice it clears resets its value here. */
  onSearch?: () => void;
  label: string;
  error?: string;
  /** The first, empty choice ("Select …"); "Loading..." stands in while the first matches load. */
  placeholder: string;
  /** Said when there is nothing to choose from. */
  empty: string;
  /** Said instead when only what was typed matches nothing (the list has choices, just none of these). */
  noMatch?: string;
  /** A choice listed first whatever the search finds (the current value of an edit), there before the matches load. */
  pinned?: { value: number; label: string };
  className?: string;
  /** The choice the form opened with (a draft kept on the device): chosen once the matches hold it. */
  initialChoice?: string;
  /** The match chosen (undefined: none), for a form that needs more of it than its id. */
  onPick?: (item: T | undefined) => void;
  ref?: Ref<HTMLSelectElement>;
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'placeholder'>;

/**
 * A search box beside a dropdown of what the server found for it, for choosing one of thousands
 * (people, projects) without loading them all. Above the matches shown, a hint says to type more.
 */
export function SearchSelect<T>({ find, toOption, searchLabel, searchPlaceholder, onSearch, label, error, placeholder, empty, noMatch, pinned, groups, className = 'grid gap-4 sm:grid-cols-2', initialChoice, onPick, ref, ...selectProps }: Props<T>) {
  const { t } = useTranslation();
  const { search, setSearch, found } = useListSearch(find);
  const options = found.data?.items.map(toOption).filter((option) => option.value !== pinned?.value);
  const shown = options?.length ?? 0;
  const total = found.data?.total ?? 0;
  const select = useRef<HTMLSelectElement | null>(null);
  const chosen = useRef('');

  // New matches may no longer hold the option chosen among the previous ones: the browser then
  // shows the empty choice without a change event, so one is sent for the form to hear it too.
  useLayoutEffect(() => {
    if (select.current && chosen.current !== '' && select.current.value !== chosen.current) select.current.dispatchEvent(new Event('change', { bubbles: true }));
  }, [found.data]);
  // The form holds the draft's choice from the start; the dropdown shows it once it is among the matches.
  const restoring = useRef(initialChoice);
  useLayoutEffect(() => {
    const wanted = restoring.current;
    if (!select.current || !wanted || !found.data) return;
    restoring.current = undefined;
    if (select.current.value === '' && [...select.current.options].some((option) => option.value === wanted)) {
      select.current.value = wanted;
      chosen.current = wanted;
    }
  }, [found.data]);

  return (
    <div className={className}>
      <TextField
        type="search"
        label={searchLabel}
        placeholder={searchPlaceholder}
        autoComplete="off"
        value={search}
        onChange={(event) => {
          setSearch(event.target.value);
          onSearch?.();
        }}
      />
      <div className="space-y-1">
        <SelectField
          ref={(element) => {
            select.current = element;
            if (typeof ref === 'function') ref(element);
            else if (ref) ref.current = element;
          }}
          label={label}
          error={error}
          hint={total > shown ? t('list.narrow', { shown, total }) : undefined}
          {...selectProps}
          onChange={(event) => {
            chosen.current = event.target.value;
            onPick?.(found.data?.items.find((item) => String(toOption(item).value) === event.target.value));
            selectProps.onChange?.(event);
          }}
        >
          <option value="">{options ? placeholder : t('app.loading')}</option>
          {pinned && <option value={pinned.value}>{pinned.label}</option>}
          {groups
            ? groups.map((group) => {
                const members = options?.filter((option) => option.group === group.key) ?? [];
                return (
                  members.length > 0 && (
                    <optgroup key={group.key} label={group.label}>
                      {members.map(renderOption)}
                    </optgroup>
                  )
                );
              })
            : options?.map(renderOption)}
        </SelectField>
        {options && shown === 0 && !pinned && <p className="text-sm text-slate-600">{noMatch && search.trim() !== '' ? noMatch : empty}</p>}
      </div>
    </div>
  );
}

const renderOption = (option: Option) => (
  <option key={option.value} value={option.value}>
    {option.label}
  </option>
);
