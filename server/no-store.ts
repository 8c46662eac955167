import type { FastifyReply } from 'fastify';

/**
 * An answer about one person that no cache may keep, the browser's own included: a member's plans,
 * suggestions and settings, a staff day's dates, a shared plan read through its link, a reminder
 * link's view. The route returns it as any other answer.
 */
export function notStored<Answer>(reply: FastifyReply, answer: Answer): Answer {
  reply.header('cache-control', 'no-store');
  return answer;
}
