import { Link } from 'react-router';
import { EmptyState } from '#web/components/ui/Feedback.tsx';

export default function NotFoundScreen() {
  return (
    <div className="container page">
      <EmptyState icon="🧭" title={<h1>Page not found</h1>}>
        <p>The address may be mistyped, or the page has moved.</p>
        <Link className="btn btn--primary" to="/">
          Back to home
        </Link>
      </EmptyState>
    </div>
  );
}
