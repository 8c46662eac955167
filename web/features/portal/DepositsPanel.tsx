import { useState, type FormEvent } from 'react';
import { depositPolicyBody, type AdminDepositPolicy, type DepositPolicyBody } from '#common/contract/deposits.ts';
import { depositKinds, paiseToRupeesInput, rupeesToPaise, weekdayNames, type DepositKind } from '#common/domain/deposit-policy.ts';
import { formatDateShort, formatTime12h } from '#common/domain/time.ts';
import { errorMessage } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { SelectField, TextField } from '#web/components/ui/Field.tsx';
import { useToast } from '#web/components/ui/Toast.tsx';
import { useDepositPolicy, useResolveDispute, useSaveDepositPolicy, useStrikeDisputes } from './deposits-api.ts';

const kindLabels: Record<DepositKind, string> = { none: 'No deposit', deposit: 'Deposit a guest', prepayment: 'Full prepayment a guest' };

interface RuleForm {
  key: number;
  days: number[];
  fromTime: string;
  untilTime: string;
  kind: DepositKind;
  rupees: string;
}

interface PolicyForm {
  kind: DepositKind;
  rupees: string;
  rules: RuleForm[];
  freeCancelMinutes: string;
  lateCancelKeepPercent: string;
  noShowKeepPercent: string;
}

let ruleKeys = 0;

function formOf(policy: AdminDepositPolicy): PolicyForm {
  return {
    kind: policy.defaultCharge.kind,
    rupees: policy.defaultCharge.perCoverPaise ? paiseToRupeesInput(policy.defaultCharge.perCoverPaise) : '',
    rules: policy.rules.map((rule) => ({ ...rule, key: ruleKeys++, rupees: rule.perCoverPaise ? paiseToRupeesInput(rule.perCoverPaise) : '' })),
    freeCancelMinutes: String(policy.freeCancelMinutes),
    lateCancelKeepPercent: String(policy.lateCancelKeepPercent),
    noShowKeepPercent: String(policy.noShowKeepPercent),
  };
}

/** Field errors keyed like 'defaultCharge.perCoverPaise' or 'rules.0.untilTime'. */
type Errors = Record<string, string>;

const RUPEES_HINT = 'Enter rupees, e.g. 500 or 249.50';

/**
 * The contract's messages name their field for the API ('freeCancelMinutes must be…', 'days: choose…');
 * beside the field itself they read without it.
 */
function besideTheField(message: string): string {
  const bare = message.replace(/^[\w.]+:\s*/, '').replace(/^[a-z][A-Za-z]+ (must|cannot) /, (_, verb: string) => `${verb} `);
  return bare.charAt(0).toUpperCase() + bare.slice(1);
}

/** The form as the contract's body, checked by the same Zod schema the server uses; rupees become paise here. */
function toBody(form: PolicyForm): { body?: DepositPolicyBody; errors: Errors } {
  const errors: Errors = {};
  const paiseOf = (kind: DepositKind, rupees: string, field: string) => {
    if (kind === 'none') return 0;
    const paise = rupeesToPaise(rupees);
    if (paise === null) errors[field] = RUPEES_HINT;
    return paise ?? 0;
  };
  const candidate = {
    defaultCharge: { kind: form.kind, perCoverPaise: paiseOf(form.kind, form.rupees, 'defaultCharge.perCoverPaise') },
    rules: form.rules.map((rule, index) => ({
      days: [...rule.days].sort(),
      fromTime: rule.fromTime,
      untilTime: rule.untilTime,
      kind: rule.kind,
      perCoverPaise: paiseOf(rule.kind, rule.rupees, `rules.${index}.perCoverPaise`),
    })),
    freeCancelMinutes: Number(form.freeCancelMinutes),
    lateCancelKeepPercent: Number(form.lateCancelKeepPercent),
    noShowKeepPercent: Number(form.noShowKeepPercent),
  };
  const parsed = depositPolicyBody.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path.join('.');
      errors[key] ??= besideTheField(issue.message);
    }
  }
  if (Object.keys(errors).length > 0) return { errors };
  return { body: parsed.data, errors };
}

/** The Deposits tab: the policy form and the strike disputes to resolve (decisions 120, 122). */
export function DepositsPanel() {
  const policy = useDepositPolicy();
  return (
    <div className="deposits">
      <section className="admin-panel" aria-labelledby="deposit-policy-title">
        <h2 id="deposit-policy-title" className="admin-panel__title">
          Deposit policy
        </h2>
        <p className="admin-panel__note">
          Ask for a deposit or full prepayment per guest to cut no-shows. Diners see the amount before they reserve, and in plain words on the hold screen.
        </p>
        {policy.data ? <PolicyFormView key={policy.data.updatedAt ?? 'new'} policy={policy.data} /> : <p role="status">Loading the policy…</p>}
      </section>
      <DisputesCard />
    </div>
  );
}

function PolicyFormView({ policy }: { policy: AdminDepositPolicy }) {
  const toast = useToast();
  const save = useSaveDepositPolicy();
  const [form, setForm] = useState<PolicyForm>(() => formOf(policy));
  const [errors, setErrors] = useState<Errors>({});
  const set = (patch: Partial<PolicyForm>) => setForm((current) => ({ ...current, ...patch }));
  /** One of the cancellation terms: a whole number, its value, its change and its error. */
  const termsField = (key: 'freeCancelMinutes' | 'lateCancelKeepPercent' | 'noShowKeepPercent') => ({
    type: 'number',
    inputMode: 'numeric' as const,
    value: form[key],
    onChange: (event: { target: { value: string } }) => set({ [key]: event.target.value }),
    error: errors[key],
  });
  const setRule = (index: number, patch: Partial<RuleForm>) =>
    setForm((current) => ({ ...current, rules: current.rules.map((rule, at) => (at === index ? { ...rule, ...patch } : rule)) }));

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const { body, errors: found } = toBody(form);
    setErrors(found);
    if (!body) {
      toast('Please fix the highlighted fields', 'error', { key: 'deposit-policy' });
      return;
    }
    try {
      await save.mutateAsync(body);
      toast('Deposit policy saved', 'success', { key: 'deposit-policy' });
    } catch (error) {
      toast(errorMessage(error, { server: 'Could not save the deposit policy', network: NETWORK_FALLBACK }), 'error', { key: 'deposit-policy' });
    }
  }

  return (
    <form className="deposit-form" onSubmit={onSubmit} noValidate>
      <fieldset className="deposit-form__group">
        <legend>Usual charge</legend>
        <div className="deposit-form__row">
          <KindField value={form.kind} onChange={(kind) => set({ kind })} />
          {form.kind === 'none' ? null : (
            <TextField
              label="Amount a guest (₹)"
              inputMode="decimal"
              value={form.rupees}
              onChange={(event) => set({ rupees: event.target.value })}
              error={errors['defaultCharge.perCoverPaise']}
            />
          )}
        </div>
      </fieldset>

      <fieldset className="deposit-form__group">
        <legend>Rules by day and time</legend>
        <p className="deposit-form__note">The first rule that matches a table’s day and start time wins; others get the usual charge.</p>
        {form.rules.map((rule, index) => (
          <div className="deposit-rule" key={rule.key}>
            <fieldset className="deposit-rule__days">
              <legend>Rule {index + 1}: days</legend>
              {weekdayNames.map((name, day) => (
                <label key={name} className="deposit-rule__day">
                  <input
                    type="checkbox"
                    checked={rule.days.includes(day)}
                    onChange={(event) => setRule(index, { days: event.target.checked ? [...rule.days, day] : rule.days.filter((value) => value !== day) })}
                  />
                  {name}
                </label>
              ))}
              {errors[`rules.${index}.days`] ? <span className="field__error">{errors[`rules.${index}.days`]}</span> : null}
            </fieldset>
            <div className="deposit-form__row">
              <TextField
                label="From"
                type="time"
                value={rule.fromTime}
                onChange={(event) => setRule(index, { fromTime: event.target.value })}
                error={errors[`rules.${index}.fromTime`]}
              />
              <TextField
                label="Until (included)"
                type="time"
                value={rule.untilTime}
                onChange={(event) => setRule(index, { untilTime: event.target.value })}
                error={errors[`rules.${index}.untilTime`]}
              />
              <KindField value={rule.kind} onChange={(kind) => setRule(index, { kind })} />
              {rule.kind === 'none' ? null : (
                <TextField
                  label="Amount a guest (₹)"
                  inputMode="decimal"
                  value={rule.rupees}
                  onChange={(event) => setRule(index, { rupees: event.target.value })}
                  error={errors[`rules.${index}.perCoverPaise`]}
                />
              )}
            </div>
            <Button
              type="button"
              variant="secondary"
              onClick={() => setForm((current) => ({ ...current, rules: current.rules.filter((_, at) => at !== index) }))}
            >
              Remove rule {index + 1}
            </Button>
          </div>
        ))}
        <Button
          type="button"
          variant="secondary"
          onClick={() =>
            set({ rules: [...form.rules, { key: ruleKeys++, days: [5, 6], fromTime: '19:00', untilTime: '22:30', kind: 'deposit', rupees: '500' }] })
          }
        >
          Add a rule
        </Button>
      </fieldset>

      <fieldset className="deposit-form__group">
        <legend>Cancellations and no-shows</legend>
        <div className="deposit-form__row">
          <TextField label="Free cancel up to (minutes before)" min={0} {...termsField('freeCancelMinutes')} hint="120 is the terms’ 2 hours" />
          <TextField label="Kept on a late cancel (%)" min={0} max={100} {...termsField('lateCancelKeepPercent')} hint="100 keeps all of it" />
          <TextField label="Kept on a no-show (%)" min={0} max={100} {...termsField('noShowKeepPercent')} />
        </div>
      </fieldset>
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save deposit policy'}
      </Button>
    </form>
  );
}

/** No deposit, a deposit a guest, or full prepayment a guest. */
function KindField({ value, onChange }: { value: DepositKind; onChange: (kind: DepositKind) => void }) {
  return (
    <SelectField label="Kind" value={value} onChange={(event) => onChange(event.target.value as DepositKind)}>
      {depositKinds.map((kind) => (
        <option key={kind} value={kind}>
          {kindLabels[kind]}
        </option>
      ))}
    </SelectField>
  );
}

const NETWORK_FALLBACK = 'Could not reach the server. Check your connection and try again.';

function DisputesCard() {
  const disputes = useStrikeDisputes();
  const resolve = useResolveDispute();
  const toast = useToast();
  const open = (disputes.data ?? []).filter((dispute) => dispute.status === 'open');

  async function decide(id: string, outcome: 'uphold' | 'reject') {
    try {
      await resolve.mutateAsync({ id, outcome });
      toast(outcome === 'uphold' ? 'Dispute upheld: the strike is removed' : 'Dispute rejected: the strike stays', 'success', { key: 'dispute' });
    } catch (error) {
      toast(errorMessage(error, { server: 'Could not resolve the dispute', network: NETWORK_FALLBACK }), 'error', { key: 'dispute' });
    }
  }

  return (
    <section className="admin-panel" aria-labelledby="strike-disputes-title">
      <h2 id="strike-disputes-title" className="admin-panel__title">
        No-show disputes
      </h2>
      {disputes.isPending ? (
        <p role="status">Loading disputes…</p>
      ) : open.length === 0 ? (
        <p className="admin-panel__note">No disputes waiting. Diners can dispute a no-show for 14 days.</p>
      ) : (
        <ul className="dispute-list">
          {open.map((dispute) => (
            <li key={dispute.id} className="dispute">
              <p className="dispute__who">
                <strong>{dispute.diner.name}</strong> · {formatDateShort(dispute.slot.date)}, {formatTime12h(dispute.slot.time)} · {dispute.partySize}{' '}
                {dispute.partySize === 1 ? 'guest' : 'guests'}
              </p>
              {/* React escapes what the diner typed. */}
              <blockquote className="dispute__reason">{dispute.reason}</blockquote>
              <div className="dispute__actions">
                <Button type="button" onClick={() => void decide(dispute.id, 'uphold')} disabled={resolve.isPending}>
                  Uphold (remove strike)
                </Button>
                <Button type="button" variant="secondary" onClick={() => void decide(dispute.id, 'reject')} disabled={resolve.isPending}>
                  Reject
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
