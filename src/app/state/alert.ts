import { observable } from '@legendapp/state';

/** spec §3: alert flag, text and type (default warning). */
export type AlertType = 'warning' | 'success' | 'error' | 'info';

export interface AlertState {
  visible: boolean;
  text: string;
  type: AlertType;
  /** Bumped on every show, so the same text twice restarts the timer. */
  serial: number;
}

/** spec §9: the alert banner shows for 2 seconds. */
export const ALERT_DURATION_MS = 2000;

export const alert$ = observable<AlertState>({ visible: false, text: '', type: 'warning', serial: 0 });

let hideTimer: ReturnType<typeof setTimeout> | undefined;

export function showAlert(text: string, type: AlertType = 'warning'): void {
  alert$.set((prev) => ({ visible: true, text, type, serial: prev.serial + 1 }));
  clearTimeout(hideTimer);
  hideTimer = setTimeout(hideAlert, ALERT_DURATION_MS);
}

export function hideAlert(): void {
  clearTimeout(hideTimer);
  alert$.visible.set(false);
}
