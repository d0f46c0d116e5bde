import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ALERT_DURATION_MS, alert$, showAlert } from '../../src/app/state/alert';
import { displaySettings$, setDisplaySettings } from '../../src/app/state/display-settings';
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
    });
  });

  it('opens and closes the login prompt', () => {
    showLoginPrompt();
    expect(loginPrompt$.peek()).toBe(true);
    hideLoginPrompt();
    expect(loginPrompt$.peek()).toBe(false);
  });
});
