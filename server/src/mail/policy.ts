import { sql, type SQL } from 'drizzle-orm';
import type { MailKind } from './notifications.js';

/**
 * Which mails the profile's box governs (decision 143). A service mail tells a pupil something about
 * their own participation — the convocation, a change of centre, a departure from it, the results —
 * and goes to their own address (and, for the convocation, to the family addresses they confirmed,
 * decision 134) whatever the box says. The box governs reminders (a test opening tomorrow) and the other
 * non-essential mails (the staff's daily digest), and is what their unsubscribe link turns off.
 */
type MailCategory = 'service' | 'reminder';

const MAIL_CATEGORIES: Record<MailKind, MailCategory> = {
  convocation: 'service',
  'center-change': 'service',
  'center-departure': 'service',
  results: 'service',
  // Decision 157: a pupil's qualification is about their own participation, as the results.
  selection: 'service',
  'grade-change': 'service',
  opening: 'reminder',
  digest: 'reminder',
};

/** The category of a stored kind: an unknown one is treated as non-essential. */
export const categoryOf = (kind: string): MailCategory => MAIL_CATEGORIES[kind as MailKind] ?? 'reminder';

/** Whether a mail of `kind` may go to a recipient whose box (users.email_notifications) is as given. */
export function mayReceive(kind: string, recipient: { emailNotifications: boolean | null }): boolean {
  return categoryOf(kind) === 'service' || recipient.emailNotifications === true;
}

/** The same rule as a SQL condition on the users row aliased `u` (queuing, notifications.ts). */
export function mayReceiveSql(kind: MailKind): SQL {
  return categoryOf(kind) === 'service' ? sql`true` : sql`u.email_notifications`;
}
