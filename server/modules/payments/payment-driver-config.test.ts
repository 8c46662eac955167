import { describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { createPaymentDriver } from './payments.service.ts';
import { RazorpayDriver } from './razorpay-driver.ts';
import { SandboxGateway } from './sandbox-gateway.ts';

describe('PAYMENTS_DRIVER', () => {
  it('defaults to the sandbox, with a random webhook secret per process when none is set', () => {
    const first = loadConfig({});
    expect(first.payments.driver).toBe('sandbox');
    expect(first.payments.webhookSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(loadConfig({}).payments.webhookSecret).not.toBe(first.payments.webhookSecret);
    expect(createPaymentDriver(first)).toBeInstanceOf(SandboxGateway);
  });

  it('razorpay needs its three secrets, and names the missing ones without showing any value', () => {
    expect(() => loadConfig({ PAYMENTS_DRIVER: 'razorpay', RAZORPAY_KEY_ID: 'rzp_test_x' })).toThrow(
      'Invalid configuration: PAYMENTS_DRIVER=razorpay needs RAZORPAY_KEY_SECRET, RAZORPAY_WEBHOOK_SECRET',
    );
    const config = loadConfig({
      PAYMENTS_DRIVER: 'razorpay',
      RAZORPAY_KEY_ID: 'rzp_test_x',
      RAZORPAY_KEY_SECRET: 'key-secret',
      RAZORPAY_WEBHOOK_SECRET: 'hook-secret',
    });
    expect(createPaymentDriver(config)).toBeInstanceOf(RazorpayDriver);
    expect(config.payments.razorpay).toMatchObject({ apiBase: 'https://api.razorpay.com' });
  });

  it('refuses an unknown driver and a short sandbox secret', () => {
    expect(() => loadConfig({ PAYMENTS_DRIVER: 'stripe' })).toThrow(/PAYMENTS_DRIVER/);
    expect(() => loadConfig({ PAYMENTS_WEBHOOK_SECRET: 'short' })).toThrow(/PAYMENTS_WEBHOOK_SECRET/);
  });
});
