import { useEffect, useState } from 'react';

/**
 * Countdowns run on the server's clock: every drop and waitlist answer carries `serverTime`,
 * and the difference from the device's clock (often minutes off on a cheap phone) is applied
 * to every tick, so "opens in 2:00" means the same second for everyone.
 */
export function clockOffsetMs(serverTime: string | undefined, receivedAtMs: number): number {
  if (!serverTime) return 0;
  const server = Date.parse(serverTime);
  return Number.isNaN(server) ? 0 : server - receivedAtMs;
}

/** The server's "now", re-read every second. */
export function useServerNow(offsetMs: number): number {
  // The device's clock ticks in state; the offset is applied on read, so a new offset shows at once.
  const [deviceNow, setDeviceNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setDeviceNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return deviceNow + offsetMs;
}

/** Whole seconds from `nowMs` until `instant`, never negative. */
export function secondsBetween(nowMs: number, instant: string): number {
  return Math.max(0, Math.ceil((Date.parse(instant) - nowMs) / 1000));
}

/** 0:09 · 9:41 under an hour, 3:05:09 under a day, then 2d 4h 05m. */
export function formatWait(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  if (days > 0) return `${days}d ${hours}h ${String(minutes).padStart(2, '0')}m`;
  if (hours > 0) return `${hours}:${String(minutes).padStart(2, '0')}:${String(rest).padStart(2, '0')}`;
  return `${minutes}:${String(rest).padStart(2, '0')}`;
}
