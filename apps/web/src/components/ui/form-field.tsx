import { forwardRef, useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { useMessageText } from '../../lib/use-message-text';

const controlClasses =
  'block w-full rounded-lg border bg-white px-3 py-2 text-sm shadow-sm placeholder:text-slate-400 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30';

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
