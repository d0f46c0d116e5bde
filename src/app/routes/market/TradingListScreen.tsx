import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { StockMarket } from '../../../shared/api/types';
import { Tabs } from '../../components/Tabs';
import { QuoteList } from './QuoteList';

const route = getRouteApi('/trading-list');

/** /trading-list: the market with tabs A-share, STAR, HK and US. */
export function TradingListScreen() {
  const { LL } = useI18nContext();
  const { market = 'a' } = route.useSearch();
  const navigate = useNavigate();
  const tabs: readonly { key: StockMarket; label: string; testId: string }[] = [
    { key: 'a', label: LL.market.tabA(), testId: 'market-tab-a' },
    { key: 'star', label: LL.market.tabStar(), testId: 'market-tab-star' },
    { key: 'hk', label: LL.market.tabHk(), testId: 'market-tab-hk' },
    { key: 'us', label: LL.market.tabUs(), testId: 'market-tab-us' },
  ];
  return (
    <div className="market-screen">
      <Tabs
        items={tabs}
        value={market}
        label={LL.titles.tradingList()}
        onChange={(next) => void navigate({ to: '/trading-list', search: { market: next }, replace: true })}
      />
      <QuoteList key={market} market={market} />
    </div>
  );
}
