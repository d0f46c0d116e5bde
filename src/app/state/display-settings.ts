import { observable } from '@legendapp/state';
import type { ProductSetting } from '../../shared/api/types';

/**
 * spec §3: the display-settings form, four booleans the station sends from getProductSetting.do.
 * Until the answer arrives everything shows (the station's own defaults); `loaded` says whether it came.
 */
export interface DisplaySettingsState extends ProductSetting {
  loaded: boolean;
}

export const displaySettings$ = observable<DisplaySettingsState>({
  futuresDisplay: true,
  indexDisplay: true,
  kcStockDisplay: true,
  stockDisplay: true,
  loaded: false,
});

export function setDisplaySettings(settings: ProductSetting): void {
  displaySettings$.set({
    futuresDisplay: settings.futuresDisplay,
    indexDisplay: settings.indexDisplay,
    kcStockDisplay: settings.kcStockDisplay,
    stockDisplay: settings.stockDisplay,
    loaded: true,
  });
}
