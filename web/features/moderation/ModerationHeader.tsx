import { BrandMark } from '#web/components/layout/SiteLayout.tsx';
import { Button } from '#web/components/ui/Button.tsx';

/** The moderation screen's header: the brand, "Moderation", who this is for, and Logout. */
export function ModerationHeader({ onLogout }: { onLogout: () => void }) {
  return (
    <header className="moderation-header">
      <div className="moderation-header__inner">
        <div className="moderation-header__identity">
          <BrandMark />
          <div>
            <h1 className="moderation-header__title">Moderation</h1>
            <p className="moderation-header__role">Tablefair staff · Dating reports</p>
          </div>
        </div>
        <Button variant="secondary" size="sm" className="moderation-header__logout" onClick={onLogout}>
          Logout
        </Button>
      </div>
    </header>
  );
}
