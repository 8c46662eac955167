import type { ReactNode } from 'react';
import { Link } from 'react-router';
import './layout.css';

/** A tidy page for a feature that is on its way: what it will do, and where to go meanwhile. */
export function ComingSoon({
  icon,
  eyebrow,
  title,
  children,
  back = { to: '/', label: 'Find a table today' },
}: {
  icon: string;
  eyebrow: string;
  title: string;
  children: ReactNode;
  back?: { to: string; label: string };
}) {
  return (
    <div className="container page">
      <section className="coming-soon" aria-labelledby="coming-soon-title">
        <span className="coming-soon__icon emoji" aria-hidden="true">
          {icon}
        </span>
        <p className="coming-soon__eyebrow">{eyebrow}</p>
        <h1 id="coming-soon-title" className="coming-soon__title">
          {title}
        </h1>
        <div className="coming-soon__text">{children}</div>
        <div className="coming-soon__actions">
          <Link to={back.to} className="btn btn--primary">
            {back.label}
          </Link>
          <Link to="/me" className="btn btn--ghost">
            My Profile
          </Link>
        </div>
      </section>
    </div>
  );
}
