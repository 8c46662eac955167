/** Every notifications query starts with ['notifications']. */
export const notificationKeys = {
  all: ['notifications'] as const,
  preferences: ['notifications', 'preferences'] as const,
  vapidKey: ['notifications', 'vapid-key'] as const,
  thisDevice: ['notifications', 'this-device'] as const,
};
