import { useState, type FormEvent, type ReactNode } from 'react';
import { startPhoneVerificationBody, verifyPhoneBody } from '#common/contract/accounts.ts';
import { errorMessage } from '#web/api/client.ts';
import { Button } from '#web/components/ui/Button.tsx';
import { Alert, Skeleton } from '#web/components/ui/Feedback.tsx';
import { TextField } from '#web/components/ui/Field.tsx';
import { OneTimeCodeField } from '#web/features/accounts/CredentialFields.tsx';
import { usePhoneStatus, useStartPhoneVerification, useVerifyPhone } from './api.ts';
import { DROP_FALLBACKS } from './rules.ts';

/**
 * Verify a phone with a one-time code (decision 084): one verified phone per account, needed
 * to enter drops. The code arrives by SMS (in development: the log and /dev/mailbox).
 */
export function PhoneVerification({ intro, onVerified }: { intro?: string; onVerified?: () => void }) {
  const status = usePhoneStatus(true);
  const start = useStartPhoneVerification();
  const verify = useVerifyPhone();
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<{ phone?: string; code?: string }>({});
  const [serverError, setServerError] = useState<string | null>(null);
  // What the last step did, for a screen reader, and where the focus goes next.
  const [announcement, setAnnouncement] = useState('');
  const [justSent, setJustSent] = useState(false);
  const [justVerified, setJustVerified] = useState(false);

  if (status.isPending) return <Skeleton height={120} radius="var(--radius-lg)" />;
  if (status.isError) {
    return (
      <Alert tone="error" title="Your phone status could not load">
        <Button variant="secondary" size="sm" onClick={() => void status.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  }
  if (status.data.verifiedPhone) {
    return (
      // Focused once verified here, so the keyboard stays on the page and the result is read out.
      <p className="phone-verified" role="status" tabIndex={justVerified ? -1 : undefined} ref={justVerified ? (element) => element?.focus() : undefined}>
        <span aria-hidden="true">✅</span> Verified phone <strong>{status.data.verifiedPhone}</strong>
      </p>
    );
  }

  const pending = status.data.pending;
  const sentTo = pending?.phone ?? null;

  /** Sends one step; a refusal is shown above the form. */
  async function send(step: () => Promise<unknown>) {
    try {
      await step();
    } catch (error) {
      // The server names the field first ('code: That code is not right…'); the person needs only the sentence.
      setServerError(errorMessage(error, DROP_FALLBACKS).replace(/^(code|phone): /, ''));
    }
  }

  async function sendCode(event: FormEvent) {
    event.preventDefault();
    setServerError(null);
    const parsed = startPhoneVerificationBody.safeParse({ phone });
    if (!parsed.success) {
      setFieldError({ phone: parsed.error.issues[0]?.message });
      return;
    }
    setFieldError({});
    await send(async () => {
      const sent = await start.mutateAsync(phone);
      setCode('');
      setJustSent(true);
      setAnnouncement(`Code sent to ${sent.phone}.`);
    });
  }

  async function checkCode(event: FormEvent) {
    event.preventDefault();
    setServerError(null);
    const parsed = verifyPhoneBody.safeParse({ phone: sentTo, code });
    if (!parsed.success) {
      setFieldError({ code: parsed.error.issues.find((issue) => issue.path[0] === 'code')?.message ?? 'Enter the 6-digit code' });
      return;
    }
    setFieldError({});
    await send(async () => {
      await verify.mutateAsync({ phone: sentTo!, code: parsed.data.code });
      setJustVerified(true);
      onVerified?.();
    });
  }

  return (
    <div className="phone-verify">
      {intro ? <p className="phone-verify__intro">{intro}</p> : null}
      {serverError ? <Alert tone="error">{serverError}</Alert> : null}
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      {sentTo ? (
        <StepForm
          onSubmit={checkCode}
          isBusy={verify.isPending}
          submitLabel="Verify phone"
          busyLabel="Checking…"
          otherAction={
            <Button
              variant="ghost"
              onClick={() =>
                void send(async () => {
                  await start.mutateAsync(sentTo);
                  setAnnouncement(`A new code was sent to ${sentTo}.`);
                })
              }
              disabled={start.isPending}
            >
              Send a new code
            </Button>
          }
        >
          <p className="phone-verify__sent" role="status">
            We sent a 6-digit code to <strong>{sentTo}</strong>. It works for 10 minutes.
          </p>
          <OneTimeCodeField
            value={code}
            // Just after Send code the focus moves here: the form it was in is gone.
            autoFocus={justSent}
            onChange={(event) => setCode(event.target.value)}
            error={fieldError.code}
          />
        </StepForm>
      ) : (
        <StepForm onSubmit={sendCode} isBusy={start.isPending} submitLabel="Send code" busyLabel="Sending…">
          <TextField
            label="Mobile number"
            name="phone"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            placeholder="98765 43210"
            hint="Ten digits are read as an Indian number (+91). One phone verifies one account."
            value={phone}
            onChange={(event) => setPhone(event.target.value)}
            error={fieldError.phone}
          />
        </StepForm>
      )}
    </div>
  );
}

/** One step's form: its fields, then its submit button (disabled while the step runs) and any other action. */
function StepForm({
  onSubmit,
  isBusy,
  submitLabel,
  busyLabel,
  otherAction,
  children,
}: {
  onSubmit: (event: FormEvent) => void;
  isBusy: boolean;
  submitLabel: string;
  busyLabel: string;
  otherAction?: ReactNode;
  children: ReactNode;
}) {
  return (
    <form className="phone-verify__form" onSubmit={onSubmit} noValidate>
      {children}
      <div className="phone-verify__actions">
        <Button type="submit" disabled={isBusy}>
          {isBusy ? busyLabel : submitLabel}
        </Button>
        {otherAction}
      </div>
    </form>
  );
}
