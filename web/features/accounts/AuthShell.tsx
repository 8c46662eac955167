import type { FormEvent, ReactNode } from 'react';
import { Alert } from '#web/components/ui/Feedback.tsx';
import './accounts.css';

const PROMISES = [
  { icon: '⏱️', text: 'Hold a table while you decide — nobody else can take it meanwhile.' },
  { icon: '🔔', text: 'Hear first when a table frees up.' },
  { icon: '🛡️', text: 'No bots, no fake accounts, no resale.' },
];

/**
 * The diner's sign-in and signup frame: the form on the warm page, and beside it on a
 * laptop (above it, briefly, on a phone) what the account is for.
 */
export function AuthShell({ title, subtitle, children, aside }: { title: ReactNode; subtitle?: ReactNode; children: ReactNode; aside?: ReactNode }) {
  return (
    <div className="auth">
      <div className="auth__inner">
        <section className="auth__panel" aria-labelledby="auth-title">
          <h1 id="auth-title" className="auth__title">
            {title}
          </h1>
          {subtitle ? <p className="auth__subtitle">{subtitle}</p> : null}
          {children}
        </section>
        <aside className="auth__pitch" aria-label="Why Tablefair">
          <p className="auth__pitch-eyebrow">Tablefair · Bengaluru</p>
          <p className="auth__pitch-title">Great tables, fairly shared — with people, not bots.</p>
          <ul className="auth__pitch-list">
            {PROMISES.map((promise) => (
              <li key={promise.text}>
                <span className="emoji" aria-hidden="true">
                  {promise.icon}
                </span>
                <span>{promise.text}</span>
              </li>
            ))}
          </ul>
          {aside}
        </aside>
      </div>
    </div>
  );
}

/**
 * The diner's sign-in or signup form: the server's refusal above it under the form's own title,
 * and the browser's validation bubbles off (each field shows its message in words).
 */
export function AuthForm({
  failure,
  failureTitle,
  onSubmit,
  children,
}: {
  failure: string | null;
  failureTitle: string;
  onSubmit: (event: FormEvent) => void;
  children: ReactNode;
}) {
  return (
    <>
      {failure ? (
        <Alert tone="error" title={failureTitle}>
          {failure}
        </Alert>
      ) : null}
      <form className="auth__form" onSubmit={onSubmit} noValidate>
        {children}
      </form>
    </>
  );
}
