import { depositRequirementFor, type DepositRequirement } from '#common/domain/deposit-policy.ts';
import { asDate } from '#server/db/client.ts';
import type { AppDeps } from '#server/deps.ts';
import type { Principal } from '#server/modules/accounts/principal.ts';
import type { RestaurantsService } from '#server/modules/restaurants/restaurants.service.ts';
import { findDropDepositOfSlot } from './deposits.repository.ts';
import type { ReservationRow } from './reservations.repository.ts';

/**
 * What a reservation's slot asks now (decision 120): the restaurant's deposit policy, or its drop's
 * own per-guest deposit. The hold screen shows it; Confirm pays it. Once paid, the booking keeps
 * the terms it was asked (decision 132): those are read from its deposit, never from here.
 */
export function createDepositRequirement({ db }: Pick<AppDeps, 'db'>, restaurants: RestaurantsService) {
  return async function currentRequirement(principal: Principal, row: ReservationRow, now: Date): Promise<DepositRequirement> {
    const [policy, dropDeposit] = await Promise.all([restaurants.getDepositPolicy(principal, row.restaurant_id), findDropDepositOfSlot(db, row.slot_id)]);
    return depositRequirementFor(policy, {
      startsAt: asDate(row.starts_at),
      covers: row.party_size,
      dropRequirement: dropDeposit ? { perCoverPaise: dropDeposit } : null,
      now,
    });
  };
}

export type CurrentRequirement = ReturnType<typeof createDepositRequirement>;
