import type { PaymentIntent, PaymentIntentList, PaymentPurpose, SandboxDecision, SandboxPayment } from '#common/contract/payments.ts';
import { bookingCode } from '#common/domain/booking-code.ts';
import { depositFigures, moneySentence } from '#common/domain/money-sentences.ts';
import { asDate, iso } from '#server/db/client.ts';
import { csvLine } from '#common/domain/csv.ts';
import type { PaymentIntentStatus } from '#common/domain/payment-intent.ts';
import { formatInstantKolkata, formatTime12h, kolkataInstant, toKolkata } from '#common/domain/time.ts';
import type { AppDeps } from '#server/deps.ts';
import { conflict, notFound } from '#server/errors.ts';
import { requireDiner, requireStaff, type Principal } from '#server/modules/accounts/principal.ts';
import { toIntent } from './intent-transitions.ts';
import {
  findIntent,
  listIntentsOfAccount,
  listIntentsOfRestaurant,
  listLedgerLinesOfRestaurant,
  listStatementRows,
  type IntentRow,
} from './payments.repository.ts';
import type { SandboxGateway } from './sandbox-gateway.ts';

const LIST_LIMIT = 100;

/** A Kolkata month (YYYY-MM) as [from, to) instants. */
function monthRange(month: string): { from: Date; to: Date } {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const next = monthNumber === 12 ? `${year + 1}-01` : `${year}-${String(monthNumber + 1).padStart(2, '0')}`;
  return { from: kolkataInstant(`${month}-01`, '00:00'), to: kolkataInstant(`${next}-01`, '00:00') };
}

/** Rupees as a spreadsheet reads them: 400.00 (no ₹, no grouping). */
function plainRupees(paise: number): string {
  return (paise / 100).toFixed(2);
}

const statementPurpose: Record<PaymentPurpose, string> = {
  reservation_deposit: 'Deposit',
  reservation_prepayment: 'Prepayment',
  dating_deposit: 'Tablefair date deposit',
};

function isOwner(principal: Principal, row: IntentRow): boolean {
  if (principal.kind === 'diner') return principal.userId === row.account_id;
  if (principal.kind === 'dating') return principal.datingUserId === row.account_id;
  if (principal.kind === 'staff') return principal.restaurantId === row.restaurant_id;
  return false;
}

function sandboxState(status: PaymentIntentStatus): SandboxPayment['state'] {
  if (status === 'CREATED') return 'open';
  if (status === 'FAILED') return 'declined';
  if (status === 'EXPIRED') return 'closed';
  return status === 'RELEASED' || status === 'REFUNDED' ? 'closed' : 'approved';
}

/** What people see of payments: their own intents, the restaurant's ledger export, and the sandbox's approval page. */
export function createPaymentReads({ db }: Pick<AppDeps, 'db'>, sandbox: SandboxGateway | undefined) {
  return {
    /** One intent, for its diner (or dating account) or the restaurant's staff. */
    async getIntent(intentId: string, principal: Principal): Promise<PaymentIntent> {
      // A moderator pays nothing and owns nothing here: like no sign-in at all (decision 185).
      if (principal.kind === 'anonymous' || principal.kind === 'moderator') requireDiner(principal);
      const row = await findIntent(db, intentId);
      // Someone else's payment answers as if it did not exist.
      if (!row || !isOwner(principal, row)) throw notFound('Payment not found');
      return toIntent(row);
    },

    /** The staff's restaurant's ledger lines posted in `month` (YYYY-MM, Kolkata), as CSV with formula-safe cells. */
    async ledgerCsv(principal: Principal, month: string): Promise<string> {
      requireStaff(principal);
      const { from, to } = monthRange(month);
      const rows = await listLedgerLinesOfRestaurant(db, principal.restaurantId, from, to);
      const header = csvLine(['posted_at', 'posting_id', 'intent_id', 'reservation_id', 'purpose', 'posting', 'account', 'amount_paise']);
      return (
        header +
        rows
          .map((row) => csvLine([iso(row.posted_at), row.posting_id, row.intent_id, row.reservation_id, row.purpose, row.kind, row.account, row.amount_paise]))
          .join('')
      );
    },

    /**
     * The restaurant's statement for `month` (decision 224): one row per deposit of a booking that
     * month, in rupees and IST, with what was kept, released and credited, reservation and date
     * deposits alike. The accountant's double-entry export stays ledger.csv.
     */
    async statementCsv(principal: Principal, month: string): Promise<string> {
      requireStaff(principal);
      const { from, to } = monthRange(month);
      const rows = await listStatementRows(db, principal.restaurantId, from, to);
      const header = csvLine([
        'Date',
        'Time',
        'Guest',
        'Booking',
        'For',
        'Deposit',
        'Held now',
        'Kept',
        'Released',
        'Credited on bill',
        'Refunded',
        'What happened',
        'Paid at (IST)',
      ]);
      return (
        header +
        rows
          .map((row) => {
            const figures = depositFigures({
              status: row.status,
              authorisedPaise: row.authorised_paise,
              capturedPaise: row.captured_paise,
              refundedPaise: row.refunded_paise,
              capturePurpose: row.capture_purpose,
              amountPaise: row.amount_paise,
            });
            const starts = row.starts_at ? toKolkata(asDate(row.starts_at)) : null;
            return csvLine([
              starts?.date ?? '',
              starts ? formatTime12h(starts.time) : '',
              row.guest_name ?? '',
              row.booking_id ? bookingCode(row.booking_id) : '',
              statementPurpose[row.purpose],
              plainRupees(row.amount_paise),
              plainRupees(figures.blockedPaise),
              plainRupees(figures.keptPaise),
              plainRupees(figures.releasedPaise),
              plainRupees(figures.creditedPaise),
              plainRupees(figures.refundedPaise),
              moneySentence(figures),
              formatInstantKolkata(row.created_at),
            ]);
          })
          .join('')
      );
    },

    /** The caller's intents: a diner's or dating account's own, or the staff's restaurant's. */
    async listForAccount(principal: Principal): Promise<PaymentIntentList> {
      if (principal.kind === 'anonymous' || principal.kind === 'moderator') requireDiner(principal);
      const rows =
        principal.kind === 'staff'
          ? await listIntentsOfRestaurant(db, principal.restaurantId, LIST_LIMIT)
          : await listIntentsOfAccount(
              db,
              principal.kind === 'diner' ? principal.userId : principal.kind === 'dating' ? principal.datingUserId : '',
              LIST_LIMIT,
            );
      return { intents: rows.map(toIntent) };
    },

    /** The sandbox approval page's view: what a gateway's page shows, nothing about the account. */
    async sandboxPayment(intentId: string): Promise<SandboxPayment> {
      const row = sandbox ? await findIntent(db, intentId) : undefined;
      if (!row || row.provider !== 'sandbox') throw notFound('Payment not found');
      return { intentId: row.id, merchant: row.restaurant_name, amountPaise: row.amount_paise, purpose: row.purpose, state: sandboxState(row.status) };
    },

    /** The diner's answer on the sandbox page: the gateway will say so by webhook. */
    async sandboxDecide(intentId: string, body: SandboxDecision): Promise<SandboxPayment> {
      const row = sandbox ? await findIntent(db, intentId) : undefined;
      if (!sandbox || !row || row.provider !== 'sandbox') throw notFound('Payment not found');
      const open = row.status === 'CREATED' || (row.status === 'FAILED' && body.decision === 'approve');
      if (!open || !row.provider_ref) throw conflict('This payment request is closed');
      if (body.decision === 'approve') sandbox.approve(row.provider_ref, row.amount_paise);
      else sandbox.decline(row.provider_ref, row.amount_paise);
      return {
        intentId: row.id,
        merchant: row.restaurant_name,
        amountPaise: row.amount_paise,
        purpose: row.purpose,
        state: body.decision === 'approve' ? 'approved' : 'declined',
      };
    },
  };
}
