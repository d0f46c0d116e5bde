/**
 * The wallet area's one door (CONVENTIONS.md "A folder per area, a door per folder"): what other areas and
 * the station's root use of it. Other areas import it from here, never from its modules.
 */
export { decideDepositByOperator } from './deposit';
export { exchangeRatePlugin } from './routes/exchange-rate';
export { walletPlugin } from './routes/wallet';
export { reviewDueWalletRequests } from './wallet-review';
export { amountToMinor, deciderName, moneyText, type Decider } from './wallet';
export { decideWithdrawalByOperator } from './withdrawal';
