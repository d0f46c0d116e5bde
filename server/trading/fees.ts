/**
 * Trading fees of DOMAIN.md "Fees". The rules are pure and live in src/shared/fees.ts, so the buy screen's
 * breakdown uses the very functions the station charges with; this module keeps the server's import path.
 */
export {
  aShareFees,
  contractFees,
  hkFees,
  tradeFees,
  usFees,
  type FeeBreakdown,
  type FeeItem,
  type Side,
  type TradeAmount,
} from '../../src/shared/fees';
