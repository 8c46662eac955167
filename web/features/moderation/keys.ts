import type { ModerationReportStatus } from '#common/contract/moderation.ts';

/** Query keys of the moderation list (decision 185). */
export const moderationKeys = {
  all: ['moderation'] as const,
  reports: (status: ModerationReportStatus) => ['moderation', 'reports', status] as const,
};
