/**
 * Trading fees of DOMAIN.md "Fees". The rules are pure and live in src/shared/fees.ts, so the buy screen's
 * breakdown uses the very functions the station charges with; this module keeps the server's import path.
 */
export {
  aShareFees,
  contractFees,
  futuresFees,
  hkFees,
  positionFees,
  sideOf,
  tradeFees,
  usFees,
  type FeeBreakdown,
  type FeeItem,
  type Leg,
  type Side,
  type TradeAmount,
} from '../../src/shared/fees';
