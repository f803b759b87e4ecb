import type { ComponentPropsWithRef } from 'react';

const variants = {
  primary: 'bg-brand-600 text-white hover:bg-brand-700 disabled:bg-brand-600/50',
  secondary: 'bg-white text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50 disabled:text-slate-400',
  dark: 'bg-ink text-white hover:bg-slate-800 disabled:bg-slate-500',
  ghost: 'text-slate-700 hover:bg-slate-100',
  danger: 'bg-red-600 text-white hover:bg-red-700 disabled:bg-red-300',
} as const;

/** `sm` is for buttons inside table rows, where several share a cell. */
const sizes = {
  md: 'px-4 py-2 text-sm',
  sm: 'px-2.5 py-1 text-xs',
} as const;

export type ButtonVariant = keyof typeof variants;
export type ButtonSize = keyof typeof sizes;

export function buttonClasses(variant: ButtonVariant = 'primary', extra = '', size: ButtonSize = 'md') {
  return `inline-flex items-center justify-center gap-2 rounded-lg font-semibold shadow-sm transition-colors disabled:cursor-not-allowed ${sizes[size]} ${variants[variant]} ${extra}`;
}

export function Button({
  variant = 'primary',
  size = 'md',
  className = '',
  type = 'button',
  ...props
}: ComponentPropsWithRef<'button'> & { variant?: ButtonVariant; size?: ButtonSize }) {
  return <button type={type} className={buttonClasses(variant, className, size)} {...props} />;
}
