import { observable } from '@legendapp/state';
import type { ProductSetting, ReplayInfo } from '../../shared/api/types';

/**
 * spec §3: the display-settings form, four booleans the station sends from getProductSetting.do.
 * Until the answer arrives everything shows (the station's own defaults); `loaded` says whether it came.
 */
export interface DisplaySettingsState extends ProductSetting {
  loaded: boolean;
  /** A station replaying history: what it replays, and when (device time) the station said so. */
  replay: { info: ReplayInfo; receivedAt: number } | null;
}

export const displaySettings$ = observable<DisplaySettingsState>({
  futuresDisplay: true,
  indexDisplay: true,
  kcStockDisplay: true,
  stockDisplay: true,
  loaded: false,
  replay: null,
});

export function setDisplaySettings(
  settings: ProductSetting & { replay?: ReplayInfo | null },
  receivedAt = Date.now(),
): void {
  displaySettings$.set({
    futuresDisplay: settings.futuresDisplay,
    indexDisplay: settings.indexDisplay,
    kcStockDisplay: settings.kcStockDisplay,
    stockDisplay: settings.stockDisplay,
    loaded: true,
    replay: settings.replay ? { info: settings.replay, receivedAt } : null,
  });
}

/**
 * The date a replay stands at on this device at `now`: the station's replayed time when it answered, run on
 * at the replay's speed since (unless paused), told in the replay's zone.
 */
export function replayDateAt(info: ReplayInfo, receivedAt: number, now: number): string {
  const t = info.paused ? info.now : info.now + Math.max(0, now - receivedAt) * info.speed;
  return new Date(t + info.offsetMinutes * 60_000).toISOString().slice(0, 10);
}
