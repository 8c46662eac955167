import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { depositStateLabels } from '#common/domain/money-sentences.ts';
import { formatRupees } from '#common/domain/deposit-policy.ts';
import { formatDateShort, formatInstantKolkata, formatTime12h } from '#common/domain/time.ts';
import { useMyDeposits } from './deposits-api.ts';
import './deposits.css';

/**
 * /me: each deposit's receipt (decision 220): what happened to the money in one sentence, then the
 * payment id, how it was paid and when, in IST. Shown only when there is one.
 */
export function MyDeposits() {
  const deposits = useMyDeposits(true);
  const { hash } = useLocation();
  const loaded = deposits.data !== undefined;
  // The hold screen's "See your receipt" link: scroll to that receipt once the list is in.
  useEffect(() => {
    if (loaded && hash.startsWith('#receipt-')) document.getElementById(hash.slice(1))?.scrollIntoView({ block: 'center' });
  }, [loaded, hash]);
  if (!deposits.data || deposits.data.deposits.length === 0) return null;
  return (
    <section className="my-deposits" aria-labelledby="my-deposits-title">
      <h2 id="my-deposits-title">Deposits and receipts</h2>
      <ul className="my-deposits__list">
        {deposits.data.deposits.map((deposit) => (
          <li key={deposit.reservationId} id={`receipt-${deposit.reservationId}`} className="my-deposits__item card card--padded" data-testid="deposit-receipt">
            <div className="my-deposits__head">
              <span className="my-deposits__place">
                {deposit.restaurant.name} · {formatDateShort(deposit.slot.date)}, {formatTime12h(deposit.slot.time)}
              </span>
              <span className={`my-deposits__state my-deposits__state--${deposit.state}`}>{depositStateLabels[deposit.state]}</span>
            </div>
            <p className="my-deposits__receipt">
              <span className="my-deposits__amount">{formatRupees(deposit.amountPaise)}</span> {deposit.receipt}
            </p>
            <dl className="my-deposits__facts">
              <div>
                <dt>Payment id</dt>
                <dd className="my-deposits__id">{deposit.paymentId}</dd>
              </div>
              <div>
                <dt>Method</dt>
                <dd>{deposit.method}</dd>
              </div>
              <div>
                <dt>Paid</dt>
                <dd>{deposit.paidAt ? `${formatInstantKolkata(deposit.paidAt)} IST` : 'Not paid'}</dd>
              </div>
              <div>
                <dt>Amount</dt>
                <dd>{formatRupees(deposit.amountPaise)}</dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}
