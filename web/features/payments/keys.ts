/** Every payments query starts with ['payments']. */
export const paymentKeys = {
  all: ['payments'] as const,
  sandbox: (intentId: string) => ['payments', 'sandbox', intentId] as const,
};
