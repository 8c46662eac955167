import { useState, type FormEvent } from 'react';
import type { StaffAccountList, StaffAccountSummary, StaffPasswordSet } from '#common/contract/password-reset.ts';
import { apiRequest, errorMessage } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { Alert } from '#web/components/ui/Feedback.tsx';
import { TextField } from '#web/components/ui/Field.tsx';

const FALLBACKS = { server: 'That did not work. Try again.', network: 'No connection. Check it and try again.' };

/**
 * A restaurant login's new password, given by Tablefair (decision 231): find the login, type a
 * password, and every session of that login ends. For staff with no email on file, after a call.
 */
export function StaffPasswordPanel({ onUnauthorized }: { onUnauthorized: () => void }) {
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<StaffAccountSummary[] | null>(null);
  const [chosen, setChosen] = useState<StaffAccountSummary | null>(null);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function guard<T>(work: () => Promise<T>): Promise<T | undefined> {
    setBusy(true);
    setFailure(null);
    try {
      return await work();
    } catch (error) {
      if ((error as { status?: number }).status === 401) onUnauthorized();
      else setFailure(errorMessage(error, FALLBACKS));
      return undefined;
    } finally {
      setBusy(false);
    }
  }

  async function onSearch(event: FormEvent) {
    event.preventDefault();
    setDone(null);
    setChosen(null);
    const list = await guard(() => apiRequest<StaffAccountList>(`/api/moderation/staff-accounts?q=${encodeURIComponent(query.trim())}`, { auth: 'moderator' }));
    if (list) setFound(list.accounts);
  }

  async function onSet(event: FormEvent) {
    event.preventDefault();
    if (!chosen) return;
    const answer = await guard(() =>
      apiRequest<StaffPasswordSet>(`/api/moderation/staff-accounts/${chosen.id}/password`, { method: 'PUT', body: { password }, auth: 'moderator' }),
    );
    if (answer) {
      setDone(`${chosen.username} (${chosen.restaurant.name}): ${answer.message}`);
      setPassword('');
      setChosen(null);
    }
  }

  return (
    <section className="moderation-staff" aria-labelledby="moderation-staff-title">
      <h2 id="moderation-staff-title">Restaurant sign-in help</h2>
      <p className="moderation-staff__lede">For a restaurant that cannot reset its own password (no email on file). Check who is calling first.</p>
      {failure ? <Alert tone="error">{failure}</Alert> : null}
      {done ? (
        <Alert tone="success" title="New password set">
          {done}
        </Alert>
      ) : null}
      <form className="moderation-staff__search" role="search" onSubmit={(event) => void onSearch(event)}>
        <TextField label="Restaurant, username or email" value={query} onChange={(event) => setQuery(event.target.value)} minLength={2} required />
        <Button type="submit" variant="secondary" disabled={busy || query.trim().length < 2}>
          Find the login
        </Button>
      </form>
      {found && found.length === 0 ? <p className="moderation-staff__lede">No restaurant login matches “{query}”.</p> : null}
      {found && found.length > 0 ? (
        <ul className="moderation-staff__list">
          {found.map((account) => (
            <li key={account.id}>
              <span>
                <strong>{account.restaurant.name}</strong> · {account.username}
                {account.email ? ` · ${account.email}` : ' · no email on file'}
              </span>
              <Button
                size="sm"
                variant={chosen?.id === account.id ? 'primary' : 'secondary'}
                aria-pressed={chosen?.id === account.id}
                onClick={() => setChosen(account)}
              >
                Set a new password<span className="visually-hidden"> for {account.username}</span>
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      {chosen ? (
        <form className="moderation-staff__set" onSubmit={(event) => void onSet(event)}>
          <TextField
            label={`New password for ${chosen.username}`}
            type="password"
            autoComplete="new-password"
            hint="At least 8 characters. Say it on the phone, never by email. Every signed-in device of this login is signed out."
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            minLength={8}
            required
          />
          <Button type="submit" disabled={busy || password.length < 8}>
            {busy ? 'Setting…' : 'Set the password'}
          </Button>
        </form>
      ) : null}
    </section>
  );
}
