import { BrandMark } from '#web/components/layout/SiteLayout.tsx';
import { Button } from '#web/components/ui/Button.tsx';

/** The moderation screen's header: the brand, "Moderation", who this is for, and Logout. */
export function ModerationHeader({ onLogout }: { onLogout: () => void }) {
  return (
    <header className="admin-header">
      <div className="admin-header__inner admin-header__inner--plain">
        <div className="admin-header__identity">
          <BrandMark />
          <div className="admin-header__titles">
            <h1 className="admin-header__name">Moderation</h1>
            <p className="admin-header__role">Tablefair staff · Dating reports</p>
          </div>
        </div>
        <div className="admin-header__end">
          <Button variant="secondary" size="sm" className="admin-header__logout" onClick={onLogout}>
            Logout
          </Button>
        </div>
      </div>
    </header>
  );
}
