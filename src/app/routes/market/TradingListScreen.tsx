import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useSelector } from '@legendapp/state/react';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { StockMarket } from '../../../shared/api/types';
import { Tabs } from '../../components/Tabs';
import { displaySettings$ } from '../../state/display-settings';
import { QuoteList } from './QuoteList';

const route = getRouteApi('/trading-list');

/** /trading-list: the market with tabs A-share, STAR, HK and US. */
export function TradingListScreen() {
  const { LL } = useI18nContext();
  const { market = 'a' } = route.useSearch();
  const navigate = useNavigate();
  // spec §3 display settings: the station can hide the A-share (stockDisplay) and STAR (kcStockDisplay) tabs.
  const { stockDisplay, kcStockDisplay } = useSelector(displaySettings$);
  const allTabs: readonly { key: StockMarket; label: string; testId: string }[] = [
    { key: 'a', label: LL.market.tabA(), testId: 'market-tab-a' },
    { key: 'star', label: LL.market.tabStar(), testId: 'market-tab-star' },
    { key: 'hk', label: LL.market.tabHk(), testId: 'market-tab-hk' },
    { key: 'us', label: LL.market.tabUs(), testId: 'market-tab-us' },
  ];
  const tabs = allTabs.filter(
    (tab) => (tab.key !== 'a' || stockDisplay) && (tab.key !== 'star' || kcStockDisplay),
  );
  const shown = tabs.some((tab) => tab.key === market) ? market : (tabs[0]?.key ?? 'hk');
  return (
    <div className="market-screen">
      <Tabs
        items={tabs}
        value={shown}
        label={LL.titles.tradingList()}
        onChange={(next) => void navigate({ to: '/trading-list', search: { market: next }, replace: true })}
      />
      <QuoteList key={shown} market={shown} />
    </div>
  );
}
