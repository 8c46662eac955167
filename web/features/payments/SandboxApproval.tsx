import type { SandboxPayment } from '#common/contract/payments.ts';
import { formatRupees } from '#common/domain/deposit-policy.ts';
import { Alert } from '#web/components/ui/Feedback.tsx';
import { Button, ButtonLink } from '#web/components/ui/Button.tsx';
import { safeReturnPath } from '#web/features/accounts/return-path.ts';
import { useSandboxDecision } from './api.ts';
import './payments.css';

const purposeWords: Record<SandboxPayment['purpose'], string> = {
  reservation_deposit: 'Table deposit',
  reservation_prepayment: 'Prepaid table',
  dating_deposit: 'Date deposit',
};

/**
 * The sandbox gateway's approval page: it stands in for the diner's UPI app or card page. The
 * amount is blocked, not taken; the answer reaches Tablefair a moment later by signed webhook.
 */
export function SandboxApproval({ payment, returnTo }: { payment: SandboxPayment; returnTo?: string | null }) {
  // Only a path on this site may be the way back (the same rule as after signing in).
  const back = safeReturnPath(returnTo);
  const decide = useSandboxDecision(payment.intentId);
  const answered = payment.state !== 'open';
  return (
    <section className="pay-card" aria-labelledby="pay-title">
      <p className="pay-card__badge">Sandbox · no real money</p>
      <p className="pay-card__merchant">Pay {payment.merchant}</p>
      <h1 id="pay-title" className="pay-card__amount">
        {formatRupees(payment.amountPaise)}
      </h1>
      <p className="pay-card__purpose">{purposeWords[payment.purpose]} · blocked on your account until your visit</p>
      <dl className="pay-card__facts">
        <div>
          <dt>Paying with</dt>
          <dd>diner@oksandbox</dd>
        </div>
        <div>
          <dt>Type</dt>
          <dd>UPI one-time mandate</dd>
        </div>
      </dl>
      <div aria-live="polite">
        {payment.state === 'approved' && (
          <Alert tone="success" title="Approved">
            {formatRupees(payment.amountPaise)} is blocked. You can go back to Tablefair.
          </Alert>
        )}
        {payment.state === 'declined' && (
          <Alert tone="info" title="Declined">
            Nothing was blocked. You can approve again while your table is held.
          </Alert>
        )}
        {payment.state === 'closed' && (
          <Alert tone="warning" title="This request is closed">
            Nothing to approve any more. Go back to Tablefair to start again.
          </Alert>
        )}
        {decide.isError && (
          <Alert tone="error" title="That did not go through">
            {decide.error.message}
          </Alert>
        )}
      </div>
      {back && answered && payment.state !== 'closed' && (
        <div className="pay-card__actions">
          <ButtonLink to={`${back}?payment=${payment.state}`} block variant={payment.state === 'approved' ? undefined : 'secondary'}>
            Back to Tablefair
          </ButtonLink>
        </div>
      )}
      {(!answered || payment.state === 'declined') && (
        <div className="pay-card__actions">
          <Button block disabled={decide.isPending} onClick={() => decide.mutate('approve')}>
            Approve {formatRupees(payment.amountPaise)}
          </Button>
          {!answered && (
            <Button block variant="secondary" disabled={decide.isPending} onClick={() => decide.mutate('decline')}>
              Decline
            </Button>
          )}
        </div>
      )}
    </section>
  );
}
