import type { DatePartnerProfile, DatePartnerSetting } from '#common/contract/dating.ts';
import { iso } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import { requireStaff, type Principal } from '#server/modules/accounts/principal.ts';
import { deleteDatingPartner, findDatingPartner, upsertDatingPartner } from './dating-partners.repository.ts';

/**
 * Restaurants that host Tablefair dates (decision 183): staff opt their own
 * restaurant in with a profile in the dating section's words, change it, or stop hosting. Date
 * plans choose among these restaurants.
 */
export function createDatingPartners(deps: AppDeps) {
  const { db, clock } = deps;

  const service = {
    /** GET /api/admin/date-partner: the staff's own restaurant's profile, or null. */
    async getOwn(principal: Principal): Promise<DatePartnerSetting> {
      requireStaff(principal);
      const row = await findDatingPartner(db, principal.restaurantId);
      return {
        partner: row
          ? {
              budget: row.budget,
              neighbourhood: row.neighbourhood,
              cuisines: row.cuisines,
              dateTypes: row.date_types,
              optedInAt: iso(row.opted_in_at),
            }
          : null,
      };
    },

    /** PUT /api/admin/date-partner: opts the staff's own restaurant in, or changes its profile. */
    async saveOwn(principal: Principal, profile: DatePartnerProfile): Promise<DatePartnerSetting> {
      requireStaff(principal);
      await upsertDatingPartner(db, principal.restaurantId, profile, clock.now());
      return service.getOwn(principal);
    },

    /** DELETE /api/admin/date-partner: the staff's own restaurant stops hosting dates. */
    async leave(principal: Principal): Promise<DatePartnerSetting> {
      requireStaff(principal);
      await deleteDatingPartner(db, principal.restaurantId);
      return { partner: null };
    },
  };
  return service;
}

export type DatingPartners = ReturnType<typeof createDatingPartners>;
