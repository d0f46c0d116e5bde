import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ALERT_DURATION_MS, alert$, showAlert } from '../../src/app/state/alert';
import { displaySettings$, replayDateAt, setDisplaySettings } from '../../src/app/state/display-settings';
import { hideLoginPrompt, loginPrompt$, showLoginPrompt } from '../../src/app/state/login-prompt';
import { followPath, selectedTab$, tabOf } from '../../src/app/state/shell';
import { TOAST_DURATION_MS, showToast, toast$ } from '../../src/app/state/toast';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('shell state', () => {
  it('shows the alert with its type (warning by default) and hides it after 2 s', () => {
    expect(ALERT_DURATION_MS).toBe(2000);
    showAlert('Check the input');
    expect(alert$.peek()).toMatchObject({ visible: true, text: 'Check the input', type: 'warning' });
    vi.advanceTimersByTime(1999);
    expect(alert$.visible.peek()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(alert$.visible.peek()).toBe(false);
    showAlert('Saved', 'success');
    expect(alert$.type.peek()).toBe('success');
  });

  it('restarts the 2 s when the same alert or toast is shown again', () => {
    showToast('Not logged in');
    vi.advanceTimersByTime(1500);
    showToast('Not logged in');
    vi.advanceTimersByTime(1500);
    expect(toast$.visible.peek()).toBe(true);
    vi.advanceTimersByTime(TOAST_DURATION_MS - 1500);
    expect(toast$.visible.peek()).toBe(false);
  });

  it('follows the path for the selected tab and keeps it on screens outside the tab bar', () => {
    followPath('/hk-list');
    expect(selectedTab$.peek()).toBe('/hk-list');
    followPath('/listdetail');
    expect(selectedTab$.peek()).toBe('/hk-list');
    followPath('/MyList/');
    expect(selectedTab$.peek()).toBe('/MyList');
    expect(tabOf('/mylist')).toBeNull();
    expect(tabOf('/User')).toBeNull();
  });

  it('shows everything until the display settings arrive, then follows them', () => {
    expect(displaySettings$.peek()).toEqual({
      futuresDisplay: true,
      indexDisplay: true,
      kcStockDisplay: true,
      stockDisplay: true,
      loaded: false,
      replay: null,
    });
    setDisplaySettings({
      futuresDisplay: false,
      indexDisplay: true,
      kcStockDisplay: false,
      stockDisplay: true,
    });
    expect(displaySettings$.peek()).toEqual({
      futuresDisplay: false,
      indexDisplay: true,
      kcStockDisplay: false,
      stockDisplay: true,
      loaded: true,
      replay: null,
    });
  });

  it('keeps what a replaying station said, and runs its date on at its speed until paused', () => {
    const info = {
      from: '2015-07-08',
      date: '2015-07-08',
      // 23:50 in Beijing (UTC+8): ten minutes before the next day there.
      now: Date.UTC(2015, 6, 8, 15, 50),
      speed: 60,
      paused: false,
      offsetMinutes: 480,
    };
    const flags = { futuresDisplay: true, indexDisplay: true, kcStockDisplay: true, stockDisplay: true };
    setDisplaySettings({ ...flags, replay: info }, 1_000_000);
    expect(displaySettings$.replay.peek()).toEqual({ info, receivedAt: 1_000_000 });
    // Nine wall seconds are nine market minutes at 60×: still the 8th; eleven are past midnight there.
    expect(replayDateAt(info, 1_000_000, 1_009_000)).toBe('2015-07-08');
    expect(replayDateAt(info, 1_000_000, 1_011_000)).toBe('2015-07-09');
    expect(replayDateAt({ ...info, paused: true }, 1_000_000, 9_000_000)).toBe('2015-07-08');
    setDisplaySettings(flags);
    expect(displaySettings$.replay.peek()).toBeNull();
  });

  it('opens and closes the login prompt', () => {
    showLoginPrompt();
    expect(loginPrompt$.peek()).toBe(true);
    hideLoginPrompt();
    expect(loginPrompt$.peek()).toBe(false);
  });
});
