import { notifications } from '@mantine/notifications';

/** docs/product.md#spec-9: notifications disappear after 5 seconds. */
export const NOTIFICATION_DURATION_MS = 5000;

export type NoticeColor = 'green' | 'red' | 'blue' | 'yellow';

/** The one way to show a notification (docs/product.md#spec-3 "Notification": message and colour). */
export function showNotice(message: string, color: NoticeColor, options: { id?: string } = {}): void {
  notifications.show({
    ...options,
    message,
    color,
    autoClose: NOTIFICATION_DURATION_MS,
    // Mantine's close button has no accessible name of its own; axe flags it without one.
    closeButtonProps: { 'aria-label': 'Fermer' },
  });
}
