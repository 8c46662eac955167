import type { ReactNode } from 'react';

/**
 * One panel of the portal: a titled section (its heading names it for screen readers) with a head
 * row for a note or an action beside the title. Panels inside a drop's page sit under its h2, so
 * they take h3.
 */
export function AdminPanel({
  className,
  titleId,
  title,
  heading: Heading = 'h2',
  aside,
  children,
}: {
  className: string;
  titleId: string;
  title: ReactNode;
  heading?: 'h2' | 'h3';
  aside?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className={`admin-panel ${className}`} aria-labelledby={titleId}>
      <div className="admin-panel__head">
        <Heading id={titleId} className="admin-panel__title">
          {title}
        </Heading>
        {aside}
      </div>
      {children}
    </section>
  );
}
