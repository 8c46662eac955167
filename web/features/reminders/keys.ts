/** Query keys of the reminder links' pages; all start with ['reminders']. */
export const reminderKeys = {
  all: ['reminders'] as const,
  link: (token: string) => ['reminders', 'link', token] as const,
};
