import { forwardRef, useId, useRef, useState, type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { numericDatePattern } from '@siteboard/shared';
import { formatDateInput, intlLocale, readDateInput } from '../../lib/format';
import { useMessageText } from '../../lib/use-message-text';
import { Icon } from './icons';

const controlClasses =
  'block w-full rounded-lg border bg-white px-3 py-2 text-sm shadow-sm placeholder:text-slate-500 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-600';

interface FieldProps {
  label: string;
  error?: string;
  hint?: string;
  /** Inside a table row the column header names the control, so the label is for screen readers only. */
  hideLabel?: boolean;
}

/**
 * Label, control and message tied together, so screen readers announce the error with the field.
 * The error is an i18n key or a shared schema's English message, shown in the reader's language.
 */
function Field({ label, error, hint, hideLabel, id, children }: FieldProps & { id: string; children: ReactNode }) {
  const messageText = useMessageText();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className={hideLabel ? 'sr-only' : 'block text-sm font-medium text-slate-700'}>
        {label}
      </label>
      {children}
      {hint && !error && (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
          {messageText(error)}
        </p>
      )}
    </div>
  );
}

/** What every control needs to be tied to its label, hint and error. */
function controlProps(id: string, { error, hint, className = '' }: { error?: string; hint?: string; className?: string }) {
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : hint ? `${id}-hint` : undefined,
    className: `${controlClasses} ${error ? 'border-red-500' : 'border-slate-300'} ${className}`,
  };
}

export const TextField = forwardRef<HTMLInputElement, FieldProps & InputHTMLAttributes<HTMLInputElement>>(function TextField(
  { label, error, hint, hideLabel, className, ...props },
  ref,
) {
  const id = useId();
  return (
    <Field id={id} label={label} error={error} hint={hint} hideLabel={hideLabel}>
      <input ref={ref} {...controlProps(id, { error, hint, className })} {...props} />
    </Field>
  );
});

export const SelectField = forwardRef<HTMLSelectElement, FieldProps & SelectHTMLAttributes<HTMLSelectElement>>(function SelectField(
  { label, error, hint, hideLabel, className, children, ...props },
  ref,
) {
  const id = useId();
  return (
    <Field id={id} label={label} error={error} hint={hint} hideLabel={hideLabel}>
      <select ref={ref} {...controlProps(id, { error, hint, className })} {...props}>
        {children}
      </select>
    </Field>
  );
});

export const TextAreaField = forwardRef<HTMLTextAreaElement, FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>>(function TextAreaField(
  { label, error, hint, hideLabel, className, ...props },
  ref,
) {
  const id = useId();
  return (
    <Field id={id} label={label} error={error} hint={hint} hideLabel={hideLabel}>
      <textarea ref={ref} rows={3} {...controlProps(id, { error, hint, className })} {...props} />
    </Field>
  );
});

interface DateFieldProps extends FieldProps {
  /** The API's `YYYY-MM-DD`, empty, or what was typed that is not yet a date. */
  value: string | null | undefined;
  /** Called with the API's `YYYY-MM-DD` once what is typed reads as a date, else with the text as typed (the form's check names what is wrong). */
  onChange: (value: string) => void;
  onBlur?: () => void;
  name?: string;
  /** The form the field belongs to when it sits outside it (an edit row). */
  form?: string;
  min?: string;
  max?: string;
  disabled?: boolean;
  required?: boolean;
  autoFocus?: boolean;
  className?: string;
  ref?: Ref<HTMLInputElement>;
}

/**
 * A date typed in the page's language (24.11.2026 in German, 11/24/2026 in English), with a button
 * that opens the browser's own calendar. A native date input writes the browser's language's
 * pattern whatever the page's `lang` (decision record 097); this field only shows and reads the
 * page's, and hands the form the API's `YYYY-MM-DD`.
 */
export function DateField({ label, error, hint, hideLabel, value, onChange, onBlur, min, max, disabled, className, ref, ...props }: DateFieldProps) {
  const id = useId();
  const { t, i18n } = useTranslation();
  const picker = useRef<HTMLInputElement>(null);
  // What the person typed, kept while the form holds what it was read as (a reset or a pick replaces it).
  const [typed, setTyped] = useState<{ text: string; sent: string; language: string } | null>(null);
  const current = value ?? '';
  const text = typed && typed.sent === current && typed.language === i18n.language ? typed.text : formatDateInput(current);
  const { order, separator } = numericDatePattern(intlLocale());
  const pattern = order.map((part) => t(`dateField.${part}`)).join(separator);
  // Text that is no date at all is named in the reader's pattern, not the API's YYYY-MM-DD.
  const shownError = error && text.trim() !== '' && !readDateInput(text) ? t('dateField.unreadable', { label, pattern }) : error;
  const control = controlProps(id, { error: shownError, hint, className: `min-h-11 sm:min-h-0 ${className ?? ''}` });

  const type = (next: string) => {
    const sent = next.trim() === '' ? '' : (readDateInput(next) ?? next);
    setTyped({ text: next, sent, language: i18n.language });
    onChange(sent);
  };
  const openCalendar = () => {
    try {
      picker.current?.showPicker();
    } catch {
      // A browser without a calendar for date inputs: typing is the way.
      document.getElementById(id)?.focus();
    }
  };

  return (
    <Field id={id} label={label} error={shownError} hint={hint} hideLabel={hideLabel}>
      <div className="relative flex gap-2">
        <input
          ref={ref}
          type="text"
          autoComplete="off"
          placeholder={pattern}
          value={text}
          disabled={disabled}
          onChange={(event) => type(event.target.value)}
          onBlur={() => {
            // A date typed another way (1.2.2026, 01022026) is shown the usual way once left.
            if (typed && readDateInput(typed.text)) setTyped(null);
            onBlur?.();
          }}
          {...control}
          aria-describedby={[control['aria-describedby'], `${id}-format`].filter(Boolean).join(' ')}
          {...props}
        />
        <span id={`${id}-format`} className="sr-only">
          {t('dateField.format', { pattern })}
        </span>
        <button
          type="button"
          onClick={openCalendar}
          disabled={disabled}
          aria-label={t('dateField.openCalendar')}
          className="inline-flex min-h-11 w-11 shrink-0 items-center justify-center rounded-lg border border-slate-300 bg-white text-slate-600 shadow-sm hover:bg-slate-50 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 disabled:opacity-50 sm:min-h-0 sm:w-10"
        >
          <Icon name="calendar" />
        </button>
        {/* The browser's calendar, opened by the button: it is never typed in nor read out. */}
        <input
          ref={picker}
          type="date"
          tabIndex={-1}
          aria-hidden="true"
          className="pointer-events-none absolute right-0 bottom-0 h-px w-px opacity-0"
          value={readDateInput(current) ?? ''}
          min={min}
          max={max}
          onChange={(event) => {
            setTyped(null);
            onChange(event.target.value);
          }}
        />
      </div>
    </Field>
  );
}
