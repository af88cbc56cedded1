import type { Module } from '../http/module.js';
import type { Processing } from '../processing/processing.service.js';
import { notificationsRouter } from './notifications.routes.js';
import type { NotificationsService } from './notifications.service.js';

/**
 * Notifications: what processing reports (photos waiting, files that failed, a missing tool) is
 * passed on here; uploads refused for lack of space come from the storage guard (server.ts), and
 * guestbook messages call `notifications.notifier.waiting('messages', count)`.
 */
export function createNotificationsModule({ notifications, processing }: { notifications: NotificationsService; processing: Processing }): Module {
  const unsubscribe: (() => void)[] = [];
  return {
    name: 'notifications',
    adminApi: [notificationsRouter(notifications)],
    start() {
      unsubscribe.push(
        processing.onProcessed((id) => notifications.photoProcessed(id)),
        processing.onFailed((id) => notifications.photoFailed(id)),
        processing.onToolMissing((tool) => notifications.notifier.toolMissing(tool)),
      );
      // Tools found missing at start (processing starts first): the couple is told, not only the log and dashboard.
      for (const tool of processing.missingTools()) notifications.notifier.toolMissing(tool);
      notifications.start();
    },
    stop() {
      for (const u of unsubscribe.splice(0)) u();
      notifications.stop();
    },
  };
}
