import type { ReactNode } from 'react';
import { BrandMark } from '#web/components/layout/SiteLayout.tsx';
import { Button } from '#web/components/ui/Button.tsx';

/**
 * The back office's sticky header (decision 187), for the restaurant portal and moderation: the
 * brand, the screen's title and who it is for, its tabs when it has any, a status, and Logout.
 */
export function BackOfficeHeader({
  title,
  role,
  tabs,
  status,
  onLogout,
}: {
  title: ReactNode;
  role: string;
  /** A tablist (`admin-tabs`); without one the header is a single row at every width. */
  tabs?: ReactNode;
  /** Shown before Logout (the portal's Live dot). */
  status?: ReactNode;
  onLogout: () => void;
}) {
  return (
    <header className="admin-header">
      <div className={`admin-header__inner${tabs ? '' : ' admin-header__inner--plain'}`}>
        <div className="admin-header__identity">
          <BrandMark />
          <div className="admin-header__titles">
            <h1 className="admin-header__name">{title}</h1>
            <p className="admin-header__role">{role}</p>
          </div>
        </div>
        {tabs}
        <div className="admin-header__end">
          {status}
          <Button variant="secondary" size="sm" className="admin-header__logout" onClick={onLogout}>
            Logout
          </Button>
        </div>
      </div>
    </header>
  );
}
