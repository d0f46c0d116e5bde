/** Open positions at live prices: the stream's prices and the P&L they make, for the lists and the detail. */
import { useEffect, useState } from 'react';
import type { Position } from '../../../shared/api/types';
import { toMajor, toMinor } from '../../../shared/money';
import { holdingValue, netPnl, pnlYield, pricePnlOf } from '../../../shared/pnl';
import { streamCarries, subscribeQuotes, useLiveQuote } from '../../api/live-quotes';

/** The streamed prices of some codes, by code (a code is absent until its first tick). */
export function useLivePrices(codes: readonly string[]): ReadonlyMap<string, number> {
  const [prices, setPrices] = useState<ReadonlyMap<string, number>>(new Map());
  const key = [...new Set(codes)].sort().join(',');
  useEffect(() => {
    setPrices(new Map());
    if (!key) return;
    const stops = key.split(',').map((code) =>
      subscribeQuotes(code, {
        quote: ({ quote }) =>
          setPrices((prev) => (prev.get(code) === quote.price ? prev : new Map(prev).set(code, quote.price))),
      }),
    );
    return () => stops.forEach((stop) => stop());
  }, [key]);
  return prices;
}

/**
 * A position's P&L at a live price: the station's price P&L moved by the price change since, less the fees
 * charged so far (the shared net-P&L rule, src/shared/pnl.ts), in major units.
 */
export function livePnl(
  position: Position,
  price: number,
): { pricePnl: number; fees: number; pnl: number; yield: number } {
  const moved = pricePnlOf(
    position.direction,
    holdingValue(position.currentPrice, position.shares, position.fxRate),
    holdingValue(price, position.shares, position.fxRate),
  );
  const { pricePnl, fees, pnl } = netPnl(toMinor(position.pricePnl) + moved, {
    buyFee: toMinor(position.buyFee),
    sellFee: toMinor(position.sellFee),
    stampDuty: toMinor(position.stampDuty),
    deferredFee: toMinor(position.deferredFee),
  });
  return {
    pricePnl: toMajor(pricePnl),
    fees: toMajor(fees),
    pnl: toMajor(pnl),
    yield: pnlYield(pnl, toMinor(position.margin)),
  };
}

/**
 * Today's P&L of an open position at a live price: the station's figure (src/shared/pnl.ts todayPnl) moved
 * by the price change since it was valued, in major units.
 */
export function liveTodayPnl(position: Position, price: number): number {
  const moved = pricePnlOf(
    position.direction,
    holdingValue(position.currentPrice, position.shares, position.fxRate),
    holdingValue(price, position.shares, position.fxRate),
  );
  return toMajor(toMinor(position.todayPnl ?? 0) + moved);
}

/** The live price of an open position: the stream's once it ticks, else the list's (0 before it loads). */
export function useLivePrice(position: Position | null | undefined): number {
  const streamed = position && position.closedAt === null && streamCarries(position.market);
  const live = useLiveQuote(streamed ? position.code : undefined);
  return live ? live.price : (position?.currentPrice ?? 0);
}
