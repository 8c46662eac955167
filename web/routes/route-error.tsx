import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { EmptyState } from '#web/components/ui/Feedback.tsx';

/** What a screen that failed to load shows: what happened and a way forward. */
export function RouteError() {
  const error = useRouteError();
  const isMissing = isRouteErrorResponse(error) && error.status === 404;
  return (
    <div className="container page">
      <EmptyState icon={isMissing ? '🧭' : '⚠️'} title={isMissing ? 'Page not found' : 'This page could not load'}>
        <p>{isMissing ? 'The address may be mistyped.' : 'Check your connection and try again.'}</p>
        <p>
          <button type="button" className="btn btn--secondary" onClick={() => window.location.reload()}>
            Try again
          </button>{' '}
          <Link className="btn btn--ghost" to="/">
            Back to home
          </Link>
        </p>
      </EmptyState>
    </div>
  );
}
