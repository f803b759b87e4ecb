import { useId } from 'react';

/** A list's search field: its label is for screen readers, its placeholder says what it searches. */
export function SearchBox({ label, placeholder, value, onChange, className = 'sm:w-72' }: { label: string; placeholder: string; value: string; onChange: (value: string) => void; className?: string }) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        type="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm placeholder:text-slate-500 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
      />
    </div>
  );
}
