import { observable } from '@legendapp/state';

/** A short message that floats over the page and fades by itself (spec §8: "a toast is shown"). */
export interface ToastState {
  visible: boolean;
  text: string;
  /** Bumped on every show, so the same text twice restarts the timer. */
  serial: number;
}

/** How long a toast stays: as long as the alert banner (spec §9: 2 seconds). */
export const TOAST_DURATION_MS = 2000;

export const toast$ = observable<ToastState>({ visible: false, text: '', serial: 0 });

let hideTimer: ReturnType<typeof setTimeout> | undefined;

export function showToast(text: string): void {
  toast$.set((prev) => ({ visible: true, text, serial: prev.serial + 1 }));
  clearTimeout(hideTimer);
  hideTimer = setTimeout(hideToast, TOAST_DURATION_MS);
}

export function hideToast(): void {
  clearTimeout(hideTimer);
  toast$.visible.set(false);
}
