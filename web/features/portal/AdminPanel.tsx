import type { ReactNode } from 'react';

/**
 * One panel of the portal: a titled section (its heading names it for screen readers) with a head
 * row: the title with how many it lists, and beside it a short note or an action. Panels inside a
 * drop's page sit under its h2, so they take h3. The panel's class names it: `drop-slots` is
 * titled by `#drop-slots-title`.
 */
export function AdminPanel({
  className,
  title,
  heading: Heading = 'h2',
  count,
  note,
  aside,
  children,
}: {
  className: string;
  title: ReactNode;
  heading?: 'h2' | 'h3';
  count?: number;
  note?: ReactNode;
  aside?: ReactNode;
  children: ReactNode;
}) {
  const titleId = `${className}-title`;
  return (
    <section className={`admin-panel ${className}`} aria-labelledby={titleId}>
      <div className="admin-panel__head">
        <Heading id={titleId} className="admin-panel__title">
          {title}
          {count === undefined ? null : (
            <>
              {' '}
              <span className="bookings__day-count">{count}</span>
            </>
          )}
        </Heading>
        {note === null || note === undefined ? null : <p className="admin-panel__note">{note}</p>}
        {aside}
      </div>
      {children}
    </section>
  );
}
