import { depositStateLabels } from '#common/domain/deposit-receipts.ts';
import { formatRupees } from '#common/domain/deposit-policy.ts';
import { formatDateShort, formatTime12h } from '#common/domain/time.ts';
import { useMyDeposits } from './deposits-api.ts';
import './deposits.css';

/** /me: each deposit and its receipt (held, credit at the table, released, kept, refunded). Shown only when there is one. */
export function MyDeposits() {
  const deposits = useMyDeposits(true);
  if (!deposits.data || deposits.data.deposits.length === 0) return null;
  return (
    <section className="my-deposits" aria-labelledby="my-deposits-title">
      <h2 id="my-deposits-title">Deposits and receipts</h2>
      <ul className="my-deposits__list">
        {deposits.data.deposits.map((deposit) => (
          <li key={deposit.reservationId} className="my-deposits__item card card--padded">
            <div className="my-deposits__head">
              <span className="my-deposits__place">
                {deposit.restaurant.name} · {formatDateShort(deposit.slot.date)}, {formatTime12h(deposit.slot.time)}
              </span>
              <span className={`my-deposits__state my-deposits__state--${deposit.state}`}>{depositStateLabels[deposit.state]}</span>
            </div>
            <p className="my-deposits__receipt">
              <span className="my-deposits__amount">{formatRupees(deposit.amountPaise)}</span> {deposit.receipt}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
