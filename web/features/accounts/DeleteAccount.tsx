import { useState } from 'react';
import type { AccountDeletionResponse } from '#common/contract/accounts.ts';
import { apiRequest, errorMessage } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { ConfirmDialog } from '#web/components/ui/ConfirmDialog.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { useSignOut } from './session.ts';

const FALLBACKS = { server: 'Your account could not be deleted. Please try again.', network: 'No connection: your account was not deleted.' };

/**
 * "Delete my account" on /me (decision 266): says what is erased and what the law makes us keep,
 * then does it; upcoming bookings are cancelled as a cancel would (deposit rules as for any cancel).
 */
export function DeleteAccount() {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();
  const signOut = useSignOut();

  async function onConfirm() {
    setBusy(true);
    setError(null);
    try {
      const answer = await apiRequest<AccountDeletionResponse>('/api/auth/me', { method: 'DELETE', auth: 'customer' });
      setAsking(false);
      toast(
        answer.cancelledBookings > 0
          ? `Your account is deleted, and ${answer.cancelledBookings} upcoming ${answer.cancelledBookings === 1 ? 'booking was' : 'bookings were'} cancelled.`
          : 'Your account is deleted.',
        'info',
        { key: 'account' },
      );
      await signOut();
    } catch (caught) {
      setError(errorMessage(caught, FALLBACKS));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="my-profile__delete card card--padded" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title">Delete my account</h2>
      <p>Erases what we hold about you. Upcoming bookings are cancelled first.</p>
      <Button variant="danger" onClick={() => setAsking(true)}>
        Delete my account
      </Button>
      <ConfirmDialog
        open={asking}
        title="Delete your account?"
        confirmLabel={busy ? 'Deleting…' : 'Yes, delete my account'}
        cancelLabel="Keep my account"
        busy={busy}
        onConfirm={() => void onConfirm()}
        onCancel={() => {
          setAsking(false);
          setError(null);
        }}
      >
        <p>
          <strong>We erase:</strong> your profile (name, username, email, phone), what you told restaurants when booking, the notes restaurants keep about you,
          the messages we sent you, and your Tablefair dating profile and photos.
        </p>
        <p>
          <strong>The law makes us keep:</strong> the payment ledger (amounts and dates of deposits and refunds), for as long as tax and payment rules require.
          It no longer says who you were.
        </p>
        <p>Upcoming bookings are cancelled as if you cancelled them, with the restaurant’s deposit rules. This cannot be undone.</p>
        {error ? (
          <p role="alert" className="my-profile__delete-error">
            {error}
          </p>
        ) : null}
      </ConfirmDialog>
    </section>
  );
}
