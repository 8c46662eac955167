import { useEffect, useState, type FormEvent } from 'react';
import type { OutboxMessage } from '#common/contract/waitlist.ts';
import { errorMessage } from '#web/api/client.ts';
import { Button, ButtonLink } from '#web/components/ui/Button.tsx';
import { Alert, EmptyState, Skeleton } from '#web/components/ui/Feedback.tsx';
import { TextField } from '#web/components/ui/Field.tsx';
import { isMailboxOff, isMailboxSignedOut, useDevMailbox } from '#web/features/waitlist/api.ts';
import { loginPath } from '#web/features/accounts/return-path.ts';
import { formatInstantKolkata } from '#common/domain/time.ts';
import { newestFirst } from '#web/features/waitlist/rules.ts';
import '#web/features/waitlist/waitlist.css';

/**
 * /dev/mailbox: the email and text messages the app sent or would have sent (offers, phone codes),
 * newest first, for development and demos: a signed-in diner sees only their own (decision 093).
 * The server answers 404 in production (decision 087).
 */
export default function DevMailboxScreen() {
  const [draft, setDraft] = useState('');
  const [recipient, setRecipient] = useState('');
  const mailbox = useDevMailbox(recipient);

  useEffect(() => {
    document.title = 'Dev mailbox · Tablefair';
  }, []);

  function onFilter(event: FormEvent) {
    event.preventDefault();
    setRecipient(draft.trim());
  }

  function onClear() {
    setDraft('');
    setRecipient('');
  }

  const off = mailbox.isError && isMailboxOff(mailbox.error);
  const signedOut = mailbox.isError && isMailboxSignedOut(mailbox.error);
  return (
    <div className="mailbox waitlist container page">
      <header className="waitlist__head">
        <p className="waitlist__eyebrow">Development</p>
        <h1 className="waitlist__title">Dev mailbox</h1>
        <p className="waitlist__lede">Email and text messages from Tablefair — waitlist offers, drop results, phone codes — as they left the outbox.</p>
      </header>

      {off ? (
        <div className="waitlist__empty">
          <EmptyState icon="📭" title={<h2>The dev mailbox is off on this server</h2>}>
            <p>
              It is only served outside production (or with DEV_MAILBOX=1), because it shows one-time codes. Here, messages leave only through the configured
              email and SMS drivers.
            </p>
            <p className="waitlist__empty-actions">
              <ButtonLink to="/">Back to home</ButtonLink>
            </p>
          </EmptyState>
        </div>
      ) : signedOut ? (
        <div className="waitlist__empty">
          <EmptyState icon="🔒" title={<h2>Sign in to see your messages</h2>}>
            <p>The mailbox shows each diner only the messages sent to them: their email and their phone's codes.</p>
            <p className="waitlist__empty-actions">
              <ButtonLink to={loginPath('/dev/mailbox')}>Sign in</ButtonLink>
            </p>
          </EmptyState>
        </div>
      ) : (
        <>
          <Alert tone="warning">Never switch this on for a public site: it shows one-time codes.</Alert>
          <div className="mailbox__tools card">
            <form className="mailbox__filter" onSubmit={onFilter} role="search" aria-label="Filter messages">
              <TextField
                label="Recipient"
                placeholder="name@example.com or +91 98765 43210"
                value={draft}
                onChange={(event) => setDraft(event.target.value)}
                autoComplete="off"
                spellCheck={false}
              />
              <Button type="submit" variant="dark">
                Filter
              </Button>
              {recipient ? (
                <Button variant="ghost" onClick={onClear}>
                  Show all
                </Button>
              ) : null}
            </form>
            <Button variant="secondary" onClick={() => void mailbox.refetch()} disabled={mailbox.isFetching}>
              {mailbox.isFetching && !mailbox.isPending ? 'Refreshing…' : 'Refresh'}
            </Button>
          </div>

          {mailbox.isPending ? (
            <div className="mailbox__list" aria-busy="true">
              <p className="visually-hidden" role="status">
                Loading messages…
              </p>
              {[0, 1, 2].map((key) => (
                <Skeleton key={key} height={132} radius="var(--radius-lg)" />
              ))}
            </div>
          ) : mailbox.isError ? (
            <Alert tone="error" title="The mailbox could not load">
              <p>{errorMessage(mailbox.error, { server: 'Something went wrong on our side.', network: 'Check your connection and try again.' })}</p>
              <Button variant="secondary" size="sm" onClick={() => void mailbox.refetch()}>
                Try again
              </Button>
            </Alert>
          ) : (
            <Messages messages={newestFirst(mailbox.data.messages)} recipient={recipient} />
          )}
        </>
      )}
    </div>
  );
}

const channelLabels: Record<OutboxMessage['channel'], string> = { email: 'Email', sms: 'SMS', whatsapp: 'WhatsApp', push: 'Push' };

function Messages({ messages, recipient }: { messages: OutboxMessage[]; recipient: string }) {
  return (
    <>
      <p className="mailbox__status" role="status">
        {messages.length === 0
          ? ''
          : `${messages.length} ${messages.length === 1 ? 'message' : 'messages'}${recipient ? ` to ${recipient}` : ''}, newest first`}
      </p>
      {messages.length === 0 ? (
        <div className="waitlist__empty">
          <EmptyState icon="📭" title={<h2>{recipient ? `No messages to ${recipient}` : 'No messages yet'}</h2>}>
            <p>
              {recipient
                ? 'Check the address or number, or show all messages.'
                : 'Offers from the waitlist and drops, and phone codes, show up here as soon as they are sent.'}
            </p>
          </EmptyState>
        </div>
      ) : (
        <ul className="mailbox__list">
          {messages.map((message) => (
            <li key={message.id} className="mail card" data-testid="mailbox-message">
              <div className="mail__meta">
                <span className={`mail-channel mail-channel--${message.channel}`}>{channelLabels[message.channel]}</span>
                <span className="mail__recipient">{message.recipient}</span>
                <span className="mail__sent">{message.sentAt ? 'Sent' : 'Kept here (not sent)'}</span>
                <time className="mail__when" dateTime={message.createdAt}>
                  {formatInstantKolkata(message.createdAt)}
                </time>
              </div>
              {message.subject ? <h2 className="mail__subject">{message.subject}</h2> : null}
              <MessageBody body={message.body} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** Web addresses in a message: the groups `split` keeps are the addresses themselves. */
const WEB_ADDRESS = /(https?:\/\/[^\s]+)/g;

/**
 * A message's text with its links clickable. A link opens its path on the server showing this
 * mailbox: in development the address a message was written with (PUBLIC_URL) may not be the one
 * the mailbox is read at. React escapes the text; only http(s) addresses that parse become links.
 */
function MessageBody({ body }: { body: string }) {
  const parts = body.split(WEB_ADDRESS);
  return (
    <pre className="mail__body">
      {parts.map((part, index) =>
        index % 2 === 1 && URL.canParse(part) ? (
          <a key={index} href={onThisServer(part)}>
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </pre>
  );
}

/** The address's path and query on this server. */
function onThisServer(address: string): string {
  const url = new URL(address);
  return `${url.pathname}${url.search}`;
}
