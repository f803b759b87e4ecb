import type { ComponentPropsWithRef } from 'react';
import { Button, type ButtonVariant } from './button';
import { Icon, type IconName } from './icons';

/**
 * A table row's action: from `md` up an icon (a row's actions stay on one line at 1280 px in every
 * language), the action's word as its tooltip and `label` (the action and the row's subject, "Edit
 * Harbour Bridge") as its name; a phone's stacked card shows the word.
 */
export function RowActionButton({
  icon,
  text,
  label,
  variant = 'secondary',
  className = '',
  ...props
}: Omit<ComponentPropsWithRef<'button'>, 'children' | 'title' | 'aria-label'> & { icon: IconName; text: string; label: string; variant?: ButtonVariant }) {
  return (
    <Button variant={variant} size="sm" className={`whitespace-nowrap md:px-1.5 ${className}`} title={text} aria-label={label} {...props}>
      <Icon name={icon} className="h-4 w-4 max-md:hidden" />
      <span className="md:hidden">{text}</span>
    </Button>
  );
}
