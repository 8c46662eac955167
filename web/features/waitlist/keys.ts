/** Every waitlist query starts with ['waitlist'], so the live listener can re-read them all at once. */
export const waitlistKeys = {
  all: ['waitlist'] as const,
  mine: ['waitlist', 'mine'] as const,
};

/** The dev mailbox (/dev/mailbox), per recipient. */
export const mailboxKeys = {
  list: (recipient: string) => ['dev-mailbox', recipient] as const,
};
