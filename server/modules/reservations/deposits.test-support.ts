import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { SandboxGateway } from '#server/modules/payments/sandbox-gateway.ts';
import { bearer, createTestApp, TEST_NOW, type TestApp } from '#server/test/app.ts';
import { buildRestaurant, buildStaff, type BuiltAccount, type BuiltRestaurant } from '#server/test/factories.ts';

/**
 * The deposits' tests' world (deposits.db.test.ts, money-sentences.db.test.ts,
 * server/security-money-dates.db.test.ts): a fresh app on a real database with the sandbox
 * gateway's signed webhooks, one restaurant asking a deposit a guest under the policy given, and
 * its staff. Call setUpDepositsFixture() once per test file; the bindings below are then live.
 * Each test starts at TEST_NOW (10:00 in Kolkata on the 23rd) with the sandbox's faults cleared.
 */
export let t: TestApp;
export let sandbox: SandboxGateway;
/** The restaurant that asks the deposit. */
export let place: BuiltRestaurant;
/** Its staff. */
export let staff: BuiltAccount;

export function setUpDepositsFixture(options: {
  restaurantName: string;
  perCoverPaise: number;
  lateCancelKeepPercent: number;
  noShowKeepPercent: number;
  env?: Record<string, string>;
}): void {
  beforeAll(async () => {
    t = await createTestApp({ env: { PAYMENTS_WEBHOOK_SECRET: 'test-webhook-secret-0123456789', ...options.env } });
    sandbox = t.app.services.payments.sandbox!;
    place = await buildRestaurant(t.database.db, { name: options.restaurantName });
    staff = await buildStaff(t.database.db, place.id);
    const policy = {
      defaultCharge: { kind: 'deposit', perCoverPaise: options.perCoverPaise },
      rules: [],
      freeCancelMinutes: 120,
      lateCancelKeepPercent: options.lateCancelKeepPercent,
      noShowKeepPercent: options.noShowKeepPercent,
    };
    const saved = await call('PUT', '/api/admin/deposit-policy', staff.token, policy);
    expect(saved.statusCode, saved.body).toBe(200);
  });
  afterAll(() => t.close());
  beforeEach(() => {
    t.clock.set(TEST_NOW);
    sandbox.resetFaults();
  });
}

export function call(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, token?: string, payload?: object) {
  return t.app.inject({ method, url, headers: token ? bearer(token) : {}, payload });
}
