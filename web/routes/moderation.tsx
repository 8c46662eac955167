import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { writeToken } from '#web/api/client.ts';
import { hasModeratorToken, logOutModerator, MODERATION_LOGIN_PATH } from '#web/features/moderation/api.ts';
import { moderationKeys } from '#web/features/moderation/keys.ts';
import { BackOfficeHeader } from '#web/components/layout/BackOfficeHeader.tsx';
import { ModerationList } from '#web/features/moderation/ModerationList.tsx';
import { StaffPasswordPanel } from '#web/features/moderation/StaffPasswordPanel.tsx';
import '#web/components/layout/backoffice.css';
import '#web/features/moderation/moderation.css';

/** /moderation: Tablefair's moderators review reported dating members (decision 185). */
export default function ModerationScreen() {
  if (!hasModeratorToken()) return <Navigate to={MODERATION_LOGIN_PATH} replace />;
  return <SignedInModeration />;
}

function SignedInModeration() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  useEffect(() => {
    document.title = 'Moderation · Tablefair';
  }, []);

  const leave = useCallback(
    (revoke: boolean) => {
      if (revoke) logOutModerator();
      else writeToken('moderator', null);
      queryClient.removeQueries({ queryKey: moderationKeys.all });
      navigate(MODERATION_LOGIN_PATH, { replace: true });
    },
    [navigate, queryClient],
  );
  const onUnauthorized = useCallback(() => leave(false), [leave]);

  return (
    <div className="admin">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <BackOfficeHeader title="Moderation" role="Tablefair staff · Dating reports" onLogout={() => leave(true)} />
      <main id="main" className="admin-main">
        <ModerationList onUnauthorized={onUnauthorized} />
        <StaffPasswordPanel onUnauthorized={onUnauthorized} />
      </main>
    </div>
  );
}
