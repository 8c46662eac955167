/** Query keys of the dating section (its own cookie session, apart from the diner's). */
export const datingKeys = {
  all: ['dating'] as const,
  me: ['dating', 'me'] as const,
  suggestions: ['dating', 'suggestions'] as const,
  plans: ['dating', 'plans'] as const,
  push: ['dating', 'push'] as const,
  sharedPlan: (token: string) => ['dating', 'shared-plan', token] as const,
};
