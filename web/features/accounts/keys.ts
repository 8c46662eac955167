/** Query keys of the diner's own account: who they are and whether their phone is verified. */
export const accountKeys = {
  all: ['auth'] as const,
  me: ['auth', 'me'] as const,
  phone: ['auth', 'phone'] as const,
};
