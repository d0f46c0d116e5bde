/**
 * What the wallet screens read first: the screens' queries and their routes' preloads (route-prefetch.ts)
 * share them.
 */
import { RATES_READ, read, SETTING_READ, USER_READ, type StationRead } from '../../api/reads';
import type { Currency } from '../../../shared/api/types';

/** The deposit channels. */
export const PAY_INFO_READ = read('GET /api/site/getPayInfo.do', {});
/** What can be withdrawn now, and the bound bank card. */
export const WITHDRAW_INFO_READ = read('GET /user/withdraw/info.do', {});
export const BANK_INFO_READ = read('GET /user/bank/getBankInfo.do', {});

/** The pair the exchange form opens on. */
export const EXCHANGE_FIRST_PAIR: { readonly source: Currency; readonly target: Currency } = {
  source: 'CNY',
  target: 'HKD',
};
export const spreadRead = (source: Currency, target: Currency) =>
  read('GET /api/user/findSpreadRateOne.do', { source, target });

export const WALLET_READS: readonly StationRead[] = [USER_READ];
export const RECHARGE_READS: readonly StationRead[] = [PAY_INFO_READ, SETTING_READ];
export const WITHDRAW_READS: readonly StationRead[] = [USER_READ, WITHDRAW_INFO_READ, BANK_INFO_READ];
export const TRANSFER_READS: readonly StationRead[] = [USER_READ];
export const EXCHANGE_READS: readonly StationRead[] = [
  USER_READ,
  spreadRead(EXCHANGE_FIRST_PAIR.source, EXCHANGE_FIRST_PAIR.target),
  RATES_READ,
];
