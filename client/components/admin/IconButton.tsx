import type { ComponentProps } from 'react';

/** A button that shows only an icon: its label is both its name for screen readers and its tooltip. */
export function IconButton({ label, children, ...button }: ComponentProps<'button'> & { label: string }) {
  return (
    <button type="button" aria-label={label} title={label} {...button}>
      {children}
    </button>
  );
}
