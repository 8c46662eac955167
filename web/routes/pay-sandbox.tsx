import { useEffect } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { ApiError } from '#web/api/client.ts';
import { Alert, Spinner } from '#web/components/ui/Feedback.tsx';
import { useSandboxPayment } from '#web/features/payments/api.ts';
import { SandboxApproval } from '#web/features/payments/SandboxApproval.tsx';
import '#web/features/payments/payments.css';

/** /pay/sandbox/{id}: the sandbox gateway's page, standing in for the diner's UPI app or card page. */
export default function PaySandboxScreen() {
  const { id = '' } = useParams();
  const payment = useSandboxPayment(id);
  const [search] = useSearchParams();
  useEffect(() => {
    document.title = 'Approve payment · Sandbox';
  }, []);
  return (
    <main className="pay-page">
      {payment.isPending && <Spinner label="Loading the payment…" />}
      {payment.isError && (
        <section className="pay-card">
          <h1 className="pay-card__merchant">Payment</h1>
          <Alert tone="error" title={payment.error instanceof ApiError && payment.error.status === 404 ? 'Payment not found' : 'Could not load the payment'}>
            Go back to Tablefair and try again.
          </Alert>
        </section>
      )}
      {payment.data && <SandboxApproval payment={payment.data} returnTo={search.get('returnTo')} />}
    </main>
  );
}
