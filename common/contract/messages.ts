import { z } from 'zod';

/** The delivery receipts of the SMS and WhatsApp providers (decisions 210, 211). */

export const exotelReceiptParams = z.object({ token: z.string().min(1).max(200) });

/** Exotel's StatusCallback form: only the fields read here; others pass unread. */
export const exotelReceiptBody = z
  .object({
    SmsSid: z.string().max(200).optional(),
    Status: z.string().max(50).optional(),
    DetailedStatus: z.string().max(100).optional(),
    DetailedStatusCode: z.string().max(20).optional(),
  })
  .passthrough();

/** The WhatsApp webhook's verify handshake (Meta sends it once when the webhook is set up). */
export const whatsAppChallengeQuery = z
  .object({
    'hub.mode': z.string().max(50).optional(),
    'hub.verify_token': z.string().max(500).optional(),
    'hub.challenge': z.string().max(500).optional(),
  })
  .passthrough();

export const receiptAnswer = z.object({ ok: z.literal(true) });
