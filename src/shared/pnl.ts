/**
 * The price part of a position's P&L (API.md `position.pricePnl`), in integer minor units: what the holding
 * is worth now (or was sold for) against what it cost, for a long; the opposite for a short.
 */
export function pricePnl(direction: 'long' | 'short', openValue: number, value: number): number {
  return direction === 'long' ? value - openValue : openValue - value;
}
