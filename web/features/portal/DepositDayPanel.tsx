import { useState } from 'react';
import { depositStateLabels } from '#common/domain/deposit-receipts.ts';
import { formatRupees } from '#common/domain/deposit-policy.ts';
import { todayInKolkata } from '#common/domain/time.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { Skeleton } from '#web/components/ui/Feedback.tsx';
import { downloadLedgerCsv, downloadStatementCsv, useDepositDay } from './deposit-day-api.ts';
import './deposit-day.css';

/** Today's deposits (a date's too): totals held, captured and released, the month's statement and the accountant's ledger as CSV. */
export function DepositDayPanel() {
  const today = todayInKolkata();
  const day = useDepositDay(today);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const month = today.slice(0, 7);
  const tiles = [
    { key: 'held', label: 'Held', paise: day.data?.totals.heldPaise },
    { key: 'captured', label: 'Captured', paise: day.data?.totals.capturedPaise },
    { key: 'released', label: 'Released', paise: day.data?.totals.releasedPaise },
  ];
  return (
    <section className="admin-panel deposit-day" aria-labelledby="deposit-day-title">
      <div className="admin-panel__head">
        <h2 id="deposit-day-title" className="admin-panel__title">
          Deposits today
        </h2>
        <div className="deposit-day__downloads">
          <Button
            size="sm"
            wrap
            onClick={() => {
              setDownloadError(null);
              downloadStatementCsv(month).catch((error: Error) => setDownloadError(error.message));
            }}
          >
            Download {month} statement (CSV)
          </Button>
          <Button
            size="sm"
            variant="secondary"
            wrap
            onClick={() => {
              setDownloadError(null);
              downloadLedgerCsv(month).catch((error: Error) => setDownloadError(error.message));
            }}
          >
            Accountant’s ledger (CSV)
          </Button>
        </div>
      </div>
      <p className="deposit-day__note">
        The statement lists each booking’s deposit in rupees and IST: kept, released and credited on the bill. The ledger is the double-entry export for your
        accountant.
      </p>
      <dl className="deposit-day__tiles">
        {tiles.map((tile) => (
          <div key={tile.key} className="deposit-day__tile">
            <dt>{tile.label}</dt>
            <dd data-testid={`deposits-${tile.key}`}>{tile.paise === undefined ? <Skeleton width={60} height={24} /> : formatRupees(tile.paise)}</dd>
          </div>
        ))}
      </dl>
      {downloadError ? (
        <p className="deposit-day__error" role="alert">
          {downloadError}
        </p>
      ) : null}
    </section>
  );
}

/** A booking's deposit (amount and state), where its slot asked one. */
export function useBookingDeposit(bookingId: string, date: string) {
  const day = useDepositDay(date);
  return day.data?.bookings.find((booking) => booking.reservationId === bookingId);
}

/** A booking card's deposit state, where its slot asked one. */
export function DepositBadge({ bookingId, date }: { bookingId: string; date: string }) {
  const deposit = useBookingDeposit(bookingId, date);
  if (!deposit) return null;
  if (deposit.forDate) {
    return (
      <span className={`deposit-badge deposit-badge--${deposit.state}`}>
        Date deposits {formatRupees(deposit.amountPaise)}
        {deposit.creditPaise ? `: credit ${formatRupees(deposit.creditPaise)} on the bill` : `: ${depositStateLabels[deposit.state]}`}
      </span>
    );
  }
  return (
    <span className={`deposit-badge deposit-badge--${deposit.state}`}>
      Deposit {formatRupees(deposit.amountPaise)}: {depositStateLabels[deposit.state]}
    </span>
  );
}
