import { useI18nContext } from '../../../locales/i18n-react';
import type { Market } from '../../shared/api/types';

export type MarketTagKey = 'sh' | 'sz' | 'bj' | 'hk' | 'us' | 'index' | 'futures';

/**
 * The exchange a code trades on, as broker apps tag it beside the code: A-shares by their code's board
 * (6xxxxx Shanghai, 0/3xxxxx Shenzhen, 4/8/92xxxx Beijing), Hong Kong and US stocks by their market.
 */
export function marketTagOf(code: string, market: Market): MarketTagKey {
  if (market === 'hk' || market === 'us' || market === 'index' || market === 'futures') return market;
  if (code.startsWith('6') || code.startsWith('5')) return 'sh';
  if (code.startsWith('4') || code.startsWith('8') || code.startsWith('92')) return 'bj';
  return 'sz';
}

/** A small tag naming the code's exchange (HK, US, SH, SZ…) in the reader's language. */
export function MarketTag({ code, market }: { code: string; market: Market }) {
  const { LL } = useI18nContext();
  const key = marketTagOf(code, market);
  return (
    <span className={`market-tag market-tag-${key}`} data-testid="market-tag">
      {LL.market.tag[key]()}
    </span>
  );
}
