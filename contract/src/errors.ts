import { z } from 'zod';

/**
 * The stable code every API error body carries beside its French message (decision 51). The message is
 * for people and may be reworded; the code is what the web app branches on. Add a code when a client
 * needs to tell a case apart; never rename one.
 */
export const ERROR_CODES = [
  'bad_request',
  'unauthorized',
  'session_expired',
  'forbidden',
  'test_not_started',
  'test_finished',
  'not_found',
  'conflict',
  'too_large',
  'unsupported_media_type',
  'rate_limited',
  'unavailable',
  'internal',
  /** A set-password link already used (GET /auth/link, decision 66): /confirm offers to log in or ask a new one. */
  'link_used',
  /** A set-password link past its 48 hours. */
  'link_expired',
  /** Decision 139: a publication while pupils may still answer, refused until the admin confirms their number. */
  'still_answering',
  /** Decision 161: a scheme change that moves grades, refused until the admin confirms their number (`preview` beside it). */
  'scheme_recompute',
] as const;

export const errorCodeSchema = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof errorCodeSchema>;

/** Every error response: `{ message, code }`. Some add fields (a grade conflict's current state). */
export const errorBodySchema = z.object({ message: z.string(), code: errorCodeSchema });
export type ErrorBody = z.infer<typeof errorBodySchema>;
