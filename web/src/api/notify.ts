import { loadOnce } from '../lib/load-once';
/** docs/product.md#spec-9: notifications disappear after 5 seconds. */
export const NOTIFICATION_DURATION_MS = 5000;

export type NoticeColor = 'green' | 'red' | 'blue' | 'yellow';

export type NotificationsModule = typeof import('@mantine/notifications');
const onLoad = new Set<(m: NotificationsModule) => void>();

/**
 * Mantine's notifications (their store and their container) in a file of their own, asked for once the app's first
 * screen is drawn and the page is idle (`NoticeContainer` in app.tsx), or at the first notice if it comes before
 * (decision 121): they were a quarter of the entry's evaluation, in the longest task of every page's start, for
 * notices most visits never show. The service worker keeps the file with the others (web/public/sw.js), so a
 * notice still shows offline.
 */
const notifications = loadOnce(() =>
  import('@mantine/notifications').then((m) => {
    for (const listener of onLoad) listener(m);
    return m;
  }),
);
// A failed download (network lost at that moment) is tried again at the next notice.
export const loadNotifications = (): Promise<NotificationsModule> => notifications.load();

/** Calls `listener` with the notifications' module once it has loaded (at once if it has); returns the unsubscribe. */
export function whenNotificationsLoad(listener: (m: NotificationsModule) => void): () => void {
  const loaded = notifications.loaded();
  if (loaded) {
    listener(loaded);
    return () => undefined;
  }
  onLoad.add(listener);
  return () => onLoad.delete(listener);
}

/** The one way to show a notification (docs/product.md#spec-3 "Notification": message and colour). */
export function showNotice(message: string, color: NoticeColor, options: { id?: string } = {}): void {
  loadNotifications().then(
    ({ notifications }) =>
      notifications.show({
        ...options,
        message,
        color,
        autoClose: NOTIFICATION_DURATION_MS,
        // Mantine's close button has no accessible name of its own; axe flags it without one.
        closeButtonProps: { 'aria-label': 'Fermer' },
      }),
    (error: unknown) => console.error(error),
  );
}
