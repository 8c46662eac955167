import type { DepositDayResponse, MyDepositsResponse } from '#common/contract/deposit-receipts.ts';
import { depositStateOf } from '#common/domain/deposit-receipts.ts';
import { depositFigures, feeReasonOf, moneySentence, paymentMethodLabel } from '#common/domain/money-sentences.ts';
import { iso, isoOrNull } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { requireDiner, requireStaff, type Principal } from '#server/modules/accounts/principal.ts';
import type { PaymentsService } from '#server/modules/payments/payments.service.ts';
import { toRestaurantRef } from '#server/modules/restaurants/restaurant-sql.ts';
import { listDateDepositsOfDay, listDepositsOfDay, listDepositsOfUser } from './deposits.repository.ts';

const LIST_LIMIT = 100;

/** Deposits as the diner (/me) and the portal's day see them, each with its state from payments. */
export function createDepositReports({ db }: Pick<AppDeps, 'db'>, payments: PaymentsService) {
  return {
    /** GET /api/me/deposits: the diner's deposits, each with its receipt. */
    async listMyDeposits(principal: Principal): Promise<MyDepositsResponse> {
      requireDiner(principal);
      const [rows, intents] = await Promise.all([listDepositsOfUser(db, principal.userId, LIST_LIMIT), payments.listForAccount(principal)]);
      const byId = new Map(intents.intents.map((intent) => [intent.id, intent]));
      return {
        deposits: rows.flatMap((row) => {
          const intent = byId.get(row.intent_id);
          if (!intent) return [];
          const figures = depositFigures(
            { ...intent, amountPaise: row.amount_paise },
            {
              feeReason: feeReasonOf(row.late_cancel, row.reservation_status),
              decided: row.move && row.move !== 'waive' ? { move: row.move, paise: row.move_paise } : null,
            },
          );
          return [
            {
              reservationId: row.reservation_id,
              restaurant: toRestaurantRef(row),
              slot: { date: row.slot_date, time: row.slot_time },
              amountPaise: row.amount_paise,
              state: figures.state,
              receipt: moneySentence(figures),
              updatedAt: intent.updatedAt,
              paymentId: intent.id,
              method: paymentMethodLabel(intent.provider),
              paidAt: isoOrNull(row.authorised_at),
              blockedPaise: figures.blockedPaise,
              terms: {
                kind: row.kind,
                amountPaise: row.amount_paise,
                perCoverPaise: row.per_cover_paise,
                freeCancelUntil: iso(row.free_cancel_until),
                lateCancelKeepPaise: row.late_cancel_keep_paise,
                noShowKeepPaise: row.no_show_keep_paise,
              },
            },
          ];
        }),
      };
    },

    /** GET /api/admin/deposits?date=: each booking's deposit state, and the day's totals held, captured and released. */
    async depositDay(principal: Principal, date: string): Promise<DepositDayResponse> {
      requireStaff(principal);
      const [rows, dateRows] = await Promise.all([
        listDepositsOfDay(db, principal.restaurantId, date),
        listDateDepositsOfDay(db, principal.restaurantId, date),
      ]);
      // A booking's own deposit and a date's two deposits (decision 224) count alike in the totals.
      const all = [...rows.map((row) => ({ ...row, forDate: false })), ...dateRows.map((row) => ({ ...row, forDate: true }))];
      const intents = await Promise.all(all.map((row) => payments.readIntent(row.intent_id)));
      const totals = { heldPaise: 0, capturedPaise: 0, releasedPaise: 0 };
      const byBooking = new Map<string, DepositDayResponse['bookings'][number]>();
      all.forEach((row, index) => {
        const intent = intents[index]!;
        const state = depositStateOf(intent);
        if (state === 'held') totals.heldPaise += intent.authorisedPaise;
        totals.capturedPaise += intent.capturedPaise - intent.refundedPaise;
        if (state === 'released') totals.releasedPaise += intent.authorisedPaise;
        if (state === 'kept' || state === 'credit_at_table' || state === 'refunded') {
          totals.releasedPaise += intent.authorisedPaise - intent.capturedPaise + intent.refundedPaise;
        }
        // What goes on the bill when the party sits down: held money that becomes credit, or credit already taken.
        const creditPaise = state === 'held' || state === 'credit_at_table' ? (state === 'held' ? intent.authorisedPaise : intent.capturedPaise) : 0;
        const known = byBooking.get(row.reservation_id);
        if (known) {
          known.amountPaise += row.amount_paise;
          known.creditPaise = (known.creditPaise ?? 0) + creditPaise;
          if (known.state !== state) known.state = state === 'held' ? state : known.state;
        } else {
          byBooking.set(row.reservation_id, {
            reservationId: row.reservation_id,
            amountPaise: row.amount_paise,
            state,
            ...(row.forDate ? { forDate: true, creditPaise } : {}),
          });
        }
      });
      const bookings = [...byBooking.values()];
      return { date, bookings, totals };
    },
  };
}
