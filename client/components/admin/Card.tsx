import type { ComponentProps, ReactNode } from 'react';

type CardProps = Omit<ComponentProps<'section'>, 'title'> & { title: ReactNode; titleId?: string };

/**
 * A card under its title. With titleId the title names the section (aria-labelledby), so screen
 * readers list it as a region; without one it stays a plain section.
 */
export function Card({ title, titleId, className, children, ...section }: CardProps) {
  return (
    <section className={className ? `card ${className}` : 'card'} aria-labelledby={titleId} {...section}>
      <h2 className="card-title" id={titleId}>
        {title}
      </h2>
      {children}
    </section>
  );
}
