/**
 * The ledger area's one door (CONVENTIONS.md "A folder per area, a door per folder"): what other areas and
 * the station's root use of it. Other areas import it from here, never from its modules.
 */
export { accountFigures, accountsOf, resetPaperAccount } from './accounts';
export { audit } from './audit';
export {
  checkLedger,
  describeLedgerCheck,
  lockAccount,
  post,
  postingAgainst,
  type UserEntry,
} from './ledger';
export { postMessage } from './messages';
export { accountRiskState, riskPosition } from './risk-state';
export { cashPlugin } from './routes/fund-flow';
export { messagesPlugin } from './routes/messages';
export { messageFeedPlugin, messageStreamPlugin } from './routes/message-stream';
export type { MessageFeed } from './message-feed';
export { type OwnAccountRow } from './views';
