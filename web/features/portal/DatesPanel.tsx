import { useState } from 'react';
import type { AdminDate } from '#common/contract/dating-plans.ts';
import type { DatePlanStatus } from '#common/domain/dating-plan.ts';
import { formatDateShort, formatTime12h, todayInKolkata, toKolkata } from '#common/domain/time.ts';
import { errorMessage } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { ConfirmDialog } from '#web/components/ui/ConfirmDialog.tsx';
import { useNow } from '#web/components/ui/use-now.ts';
import { Skeleton } from '#web/components/ui/Feedback.tsx';
import { TextField } from '#web/components/ui/Field.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { AdminPanel } from './AdminPanel.tsx';
import { useAdminDates, useMarkDateArrival } from './dates-api.ts';

/** A date's status in the staff's words. */
const dateStatusLabels: Record<DatePlanStatus, string> = {
  PROPOSED: 'Being planned',
  BOOKED: 'Booked',
  SEATED: 'Both arrived',
  FLAKED: 'One did not come',
  NO_SHOW: 'No-show',
  DECLINED: 'Declined',
  EXPIRED: 'Expired',
  REPLACED: 'Replaced',
  CANCELLED: 'Cancelled',
};

/** "Asha & Ravi". */
function pairNames(date: AdminDate): string {
  return date.members.map((member) => member.firstName).join(' & ');
}

/**
 * The dashboard's "Tablefair dates" (decision 184): the dates at this restaurant
 * on a day (today unless another is chosen), each a party of two, and a "Mark Asha arrived" button
 * per member from 30 minutes before the start, with a confirmation; an arrival can be undone for 10
 * minutes (decision 253). Both arrived seats the date and each deposit becomes credit on the bill.
 */
export function DatesPanel() {
  const [day, setDay] = useState(() => todayInKolkata());
  const dates = useAdminDates(day);
  const mark = useMarkDateArrival();
  const toast = useToast();
  const [news, setNews] = useState('');
  const list = dates.data?.dates ?? [];

  const now = useNow(15_000);
  const [confirming, setConfirming] = useState<{ date: AdminDate; member: AdminDate['members'][number] } | null>(null);

  function onArrived(date: AdminDate, member: AdminDate['members'][number], undo = false) {
    if (mark.isPending) return;
    mark.mutate(
      { planId: date.planId, memberId: member.memberId, undo },
      {
        onSuccess: (updated) => {
          setConfirming(null);
          const text = undo
            ? `${member.firstName}'s arrival is undone.`
            : updated.status === 'SEATED'
              ? `${pairNames(updated)} have both arrived: each deposit is credit on their bill.`
              : `${member.firstName} has arrived for the ${formatTime12h(updated.time)} date.`;
          toast(text, 'success', { key: 'date-arrival' });
          setNews(text);
        },
        onError: (error) => {
          setConfirming(null);
          const text = errorMessage(error, {
            server: `${member.firstName} could not be marked as arrived. Try again.`,
            network: 'Could not reach the server. Check your connection and try again.',
          });
          toast(text, 'error', { key: 'date-arrival' });
          setNews(text);
        },
      },
    );
  }

  return (
    <AdminPanel className="dates" title="Tablefair dates" count={dates.data ? list.length : undefined}>
      <div className="dates__day">
        <TextField label="Dates on" type="date" value={day} onChange={(event) => event.target.value && setDay(event.target.value)} />
      </div>
      {dates.isPending ? (
        <div className="dates__loading" aria-hidden="true">
          {[0, 1].map((i) => (
            <Skeleton key={i} height={72} radius="var(--radius-md)" />
          ))}
        </div>
      ) : dates.isError && !dates.data ? (
        <div className="dates__error">
          <p className="bookings__empty">Tablefair dates could not be loaded.</p>
          <Button variant="secondary" size="sm" onClick={() => dates.refetch()}>
            Try again
          </Button>
        </div>
      ) : list.length === 0 ? (
        <p className="bookings__empty">No Tablefair dates on {formatDateShort(day)}</p>
      ) : (
        <ul className="dates__list">
          {list.map((date) => (
            <li
              key={date.planId}
              className={`dates-row dates-row--${date.status}`}
              data-testid="dates-row"
              data-plan-id={date.planId}
              data-status={date.status}
            >
              <div className="dates-row__time">{formatTime12h(date.time)}</div>
              <div className="dates-row__who">
                Tablefair date: {pairNames(date)}, <span className="dates-row__party">party of 2</span>
              </div>
              <span className={`badge dates-badge dates-badge--${date.status}`}>{dateStatusLabels[date.status]}</span>
              <ul className="dates-row__members" aria-label={`Arrivals, ${formatTime12h(date.time)}`}>
                {date.members.map((member) => {
                  const isBusy = mark.isPending && mark.variables?.planId === date.planId && mark.variables.memberId === member.memberId;
                  const isOpen = now >= new Date(date.arrivalsOpenAt);
                  const canMark = date.status === 'BOOKED' && !member.arrived && isOpen;
                  const canUndo = member.undoUntil !== null && now < new Date(member.undoUntil);
                  return (
                    <li key={member.memberId} className="dates-row__member">
                      <span className="dates-row__name">{member.firstName}</span>
                      {member.arrived ? (
                        <>
                          <span className="dates-row__arrived">✓ Arrived</span>
                          {canUndo ? (
                            <Button
                              size="sm"
                              variant="secondary"
                              aria-disabled={mark.isPending || undefined}
                              aria-label={`Undo ${member.firstName}'s arrival, ${formatTime12h(date.time)}`}
                              onClick={() => onArrived(date, member, true)}
                            >
                              {isBusy ? 'Undoing…' : 'Undo'}
                            </Button>
                          ) : null}
                        </>
                      ) : canMark ? (
                        <Button
                          size="sm"
                          variant="primary"
                          className="dates-row__arrive"
                          // aria-disabled, not disabled: a disabled button would drop the keyboard focus to <body>.
                          aria-disabled={mark.isPending || undefined}
                          onClick={() => setConfirming({ date, member })}
                        >
                          {isBusy ? `Marking ${member.firstName}…` : `Mark ${member.firstName} arrived`}
                        </Button>
                      ) : date.status === 'BOOKED' ? (
                        <span className="dates-row__opens">From {formatTime12h(toKolkata(new Date(date.arrivalsOpenAt)).time)}</span>
                      ) : null}
                    </li>
                  );
                })}
              </ul>
            </li>
          ))}
        </ul>
      )}
      <p className="visually-hidden" role="status">
        {news}
      </p>
      <ConfirmDialog
        open={confirming !== null}
        title={confirming ? `Mark ${confirming.member.firstName} arrived?` : ''}
        confirmLabel={confirming ? `Mark ${confirming.member.firstName} arrived` : 'Mark arrived'}
        cancelLabel="Not yet"
        tone="primary"
        busy={mark.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming) onArrived(confirming.date, confirming.member);
        }}
      >
        {confirming ? (
          <p>
            Only once {confirming.member.firstName} is at the table. When both have arrived, the table is seated and each deposit becomes credit on their bill.
            You can undo this for 10 minutes.
          </p>
        ) : null}
      </ConfirmDialog>
    </AdminPanel>
  );
}
