/**
 * The browser's permission to show system notifications, asked once, when the user sets their first alert.
 * A refusal is the user's answer: alerts still arrive as toasts and messages.
 */
export async function askNotificationPermission(): Promise<NotificationPermission | 'unsupported'> {
  if (typeof Notification === 'undefined') return 'unsupported';
  if (Notification.permission !== 'default') return Notification.permission;
  try {
    return await Notification.requestPermission();
  } catch {
    return 'denied';
  }
}
