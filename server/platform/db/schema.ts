/**
 * The station's database as Kysely sees it: one `DB` listing every table of the migrations, and the
 * database, transaction and row types every module uses. The tables of migrations 0001, 0004 and 0005 are
 * here; the other areas' tables are beside them in db/*-schema.ts. Money columns are integers in minor
 * units; times are epoch ms.
 */
import type { Generated, Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { PriceAlertKind } from '../../../src/shared/api/alerts';
import type { Market, OrderStatus } from '../../../src/shared/api/types';
import type { BlockTradeBuysTable, VipBuysTable, VipPicksTable } from './blocktrades-vip-schema';
import type {
  CompetitionEntrantsTable,
  CompetitionEquityTable,
  CompetitionSnapshotsTable,
  CompetitionsTable,
} from './competitions-schema';
import type { ContentItemsTable, ServiceMessagesTable } from './content-schema';
import type { AllocationsTable, FundHoldingsTable, FundTradesTable } from './funds-schema';
import type {
  HistoryDayBarsTable,
  HistoryInstrumentsTable,
  HistoryMinuteBarsTable,
  ReplayStateTable,
} from './history-schema';
import type {
  AuditLogTable,
  KycSubmissionsTable,
  LoginGuardsTable,
  RateCountersTable,
  SiteSettingsTable,
  SmsThrottleTable,
  UploadsTable,
  UserPermissionsTable,
  PermissionRequestsTable,
} from './identity-schema';
import type {
  NewshareIssuesTable,
  NewshareSubscriptionsTable,
  StationSecretsTable,
} from './newshares-schema';

export interface UsersTable {
  id: Generated<number>;
  phone: string;
  password_hash: string;
  invite_code: string;
  inviter_id: number | null;
  real_name: string | null;
  kyc_status: 'none' | 'pending' | 'passed' | 'failed';
  kyc_fail_reason: string | null;
  withdraw_password_hash: string | null;
  created_at: number;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 of the token, hex; the token itself is never stored. */
  token_hash: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface SmsCodesTable {
  id: Generated<number>;
  phone: string;
  purpose: 'reg' | 'forget';
  code: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  attempts: number;
}

export interface BankCardsTable {
  id: Generated<number>;
  user_id: number;
  bank_name: string;
  branch: string;
  card_no: string;
  created_at: number;
}

export interface AccountsTable {
  id: Generated<number>;
  user_id: number;
  /**
   * 'fund': the sub-account of a fund allocation (migration 0009-funds), one per user; 'competition': an
   * entrant's account in a competition (migration 0015-competitions), one per currency per competition.
   */
  type: 'main' | 'index' | 'newstock' | 'hk' | 'us' | 'fund' | 'competition';
  currency: 'CNY' | 'HKD' | 'USD';
  /** Minor units; always the sum of the account's ledger entries. */
  balance: number;
  /** Minor units held by pending limit orders (not a ledger movement): available = balance − frozen. */
  frozen: Generated<number>;
  /** The competition a 'competition' account belongs to; null for every other account. */
  competition_id: Generated<number | null>;
}

export interface LedgerEntriesTable {
  id: Generated<number>;
  /** The posting this entry is part of (ledger_postings). */
  posting_id: number;
  account_id: number;
  user_id: number;
  time: number;
  type: string;
  /** Signed minor units. */
  amount: number;
  balance_after: number;
  ref_type: string | null;
  ref_id: number | null;
  note: string | null;
}

/** A posting: one movement of money, whose entries (users' and the house's) sum to zero per currency. */
export interface LedgerPostingsTable {
  id: Generated<number>;
  time: number;
  /** The type of its first user entry. */
  type: string;
  ref_type: string | null;
  ref_id: number | null;
}

/**
 * The station's own ("house") accounts, the other side of users' entries. Their balances are sums of their
 * entries, never a row updated per posting (a shared row would serialise every order on PostgreSQL).
 */
export type HouseAccount =
  | 'fees'
  | 'financing'
  | 'market'
  | 'gateway'
  | 'fx'
  | 'paper'
  | 'new_shares'
  | 'funds'
  /** Where competition accounts' starting cash comes from (play money of the competition). */
  | 'competitions';

export interface HouseEntriesTable {
  id: Generated<number>;
  posting_id: number;
  account: HouseAccount;
  currency: AccountsTable['currency'];
  /** Signed minor units; positive credits the house account. */
  amount: number;
}

export interface PositionsTable {
  id: Generated<number>;
  user_id: number;
  account_id: number;
  code: string;
  market: Market;
  direction: 'long' | 'short';
  state: 'open' | 'closed';
  lots: number;
  /** Stocks: shares; indexes and futures: contracts × multiplier (so value = price × shares everywhere). */
  shares: number;
  leverage: number;
  open_price: number;
  /**
   * Account-currency units per unit of the price's currency, fixed at the open (the day's flash-exchange
   * mid rate; 1 when the instrument is priced in the account's currency): every value is price × shares ×
   * fx_rate.
   */
  fx_rate: number;
  /** Minor units: open price × shares × fx_rate. */
  open_value: number;
  margin: number;
  buy_fee: number;
  /** JSON: the buy fee breakdown in minor units. */
  buy_fee_detail: string;
  sell_fee: number;
  sell_fee_detail: string | null;
  stamp_duty: number;
  deferred_fee: number;
  stop_profit: number | null;
  stop_loss: number | null;
  opened_at: number;
  sellable_from: number;
  closed_at: number | null;
  close_price: number | null;
  close_value: number | null;
  close_reason: 'user' | 'stop_profit' | 'stop_loss' | 'liquidation' | 'expiry' | null;
  /** The open position a partial sell split this closed record from. */
  split_from: number | null;
}

export interface IdempotencyKeysTable {
  user_id: number;
  request_id: string;
  call: string;
  /** JSON of the first successful answer's data. */
  response: string | null;
  created_at: number;
}

export interface OrdersTable {
  id: Generated<number>;
  user_id: number;
  account_id: number;
  code: string;
  market: Market;
  direction: 'long' | 'short';
  lots: number;
  leverage: number;
  trigger_price: number;
  stop_profit: number | null;
  stop_loss: number | null;
  /** Minor units this order holds of its account's available funds while pending. */
  frozen: number;
  status: OrderStatus;
  reject_reason: string | null;
  position_id: number | null;
  created_at: number;
  updated_at: number;
  /** The price a fill opened its position at: at or below the trigger for a buy, at or above for a sale. */
  fill_price: number | null;
  /** A day order expires at this instant (the close of its first working session); null for older rows. */
  expires_at: number | null;
}

export interface WatchlistTable {
  user_id: number;
  code: string;
  sort_order: number;
  created_at: number;
}

export interface EngineRunsTable {
  kind: string;
  key: string;
  done_at: number;
  note: string | null;
}

export interface PriceAlertsTable {
  id: Generated<number>;
  user_id: number;
  code: string;
  market: Market;
  kind: PriceAlertKind;
  /** A price in the instrument's currency, or a change today as a fraction of the previous close. */
  value: number;
  created_at: number;
  /** Watched from the first minute at or after this instant. */
  armed_at: number;
  /** Null while armed. */
  fired_at: number | null;
  fired_price: number | null;
}

export interface UserMessagesTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  msg_key: string;
  /** JSON object of the message's parameters. */
  params: string;
  ref_type: string | null;
  ref_id: number | null;
  created_at: number;
  read_at: number | null;
}

/** A deposit through a simulated pay channel. */
export interface RechargesTable {
  id: Generated<number>;
  user_id: number;
  account_id: number;
  order_no: string;
  channel_id: number;
  channel_name: string;
  /** Minor units. */
  amount: number;
  status: 'pending' | 'success' | 'failed' | 'cancelled';
  /** A reason the user reads: plain text, or `@errors.KEY` translated when read. */
  fail_reason: string | null;
  /** 'reviewer' (the station's pay channel) or 'operator:<name>'. */
  decided_by: string | null;
  created_at: number;
  decided_at: number | null;
}

/** A withdrawal to the bound bank card; its amount left the balance when it was requested. */
export interface WithdrawalsTable {
  id: Generated<number>;
  user_id: number;
  account_id: number;
  order_no: string;
  /** Minor units debited, the fee included. */
  amount: number;
  fee: number;
  payee_name: string;
  bank_name: string;
  card_no_masked: string;
  status: 'pending' | 'paid' | 'rejected' | 'cancelled';
  cancel_reason: string | null;
  reject_reason: string | null;
  decided_by: string | null;
  created_at: number;
  decided_at: number | null;
}

export interface TransfersTable {
  id: Generated<number>;
  user_id: number;
  from_account: AccountsTable['type'];
  to_account: AccountsTable['type'];
  amount: number;
  created_at: number;
}

export interface ExchangesTable {
  id: Generated<number>;
  user_id: number;
  source: AccountsTable['currency'];
  target: AccountsTable['currency'];
  source_amount: number;
  target_amount: number;
  mid_rate: number;
  spread_rate: number;
  created_at: number;
}

/** Every table of the station, by migration. */
export interface DB {
  // 0001-initial
  users: UsersTable;
  sessions: SessionsTable;
  sms_codes: SmsCodesTable;
  bank_cards: BankCardsTable;
  accounts: AccountsTable;
  ledger_entries: LedgerEntriesTable;
  ledger_postings: LedgerPostingsTable;
  house_entries: HouseEntriesTable;
  positions: PositionsTable;
  idempotency_keys: IdempotencyKeysTable;
  // 0003-identity
  sms_throttle: SmsThrottleTable;
  rate_counters: RateCountersTable;
  login_guards: LoginGuardsTable;
  uploads: UploadsTable;
  kyc_submissions: KycSubmissionsTable;
  user_permissions: UserPermissionsTable;
  audit_log: AuditLogTable;
  site_settings: SiteSettingsTable;
  // 0004-trading
  orders: OrdersTable;
  watchlist: WatchlistTable;
  engine_runs: EngineRunsTable;
  user_messages: UserMessagesTable;
  // 0005-wallet
  recharges: RechargesTable;
  withdrawals: WithdrawalsTable;
  transfers: TransfersTable;
  exchanges: ExchangesTable;
  // 0006-content
  content_items: ContentItemsTable;
  service_messages: ServiceMessagesTable;
  // 0007-newshares
  station_secrets: StationSecretsTable;
  newshare_issues: NewshareIssuesTable;
  newshare_subscriptions: NewshareSubscriptionsTable;
  // 0008-blocktrades-vip
  vip_picks: VipPicksTable;
  vip_buys: VipBuysTable;
  block_trade_buys: BlockTradeBuysTable;
  // 0009-funds
  fund_holdings: FundHoldingsTable;
  fund_trades: FundTradesTable;
  allocations: AllocationsTable;
  // 0014-permission-requests
  permission_requests: PermissionRequestsTable;
  // 0015-competitions
  competitions: CompetitionsTable;
  competition_entrants: CompetitionEntrantsTable;
  competition_snapshots: CompetitionSnapshotsTable;
  competition_equity: CompetitionEquityTable;
  // 0017-price-alerts
  price_alerts: PriceAlertsTable;
  // 0018-history
  history_instruments: HistoryInstrumentsTable;
  history_day_bars: HistoryDayBarsTable;
  history_minute_bars: HistoryMinuteBarsTable;
  // 0019-replay
  replay_state: ReplayStateTable;
}

export type Db = Kysely<DB>;
export type Tx = Transaction<DB>;
export type DbOrTx = Db | Tx;

export type UserRow = Selectable<UsersTable>;
export type AccountRow = Selectable<AccountsTable>;
export type PositionRow = Selectable<PositionsTable>;
export type NewPosition = Insertable<PositionsTable>;
export type LedgerRow = Selectable<LedgerEntriesTable>;
export type OrderRow = Selectable<OrdersTable>;
export type AllocationRow = Selectable<AllocationsTable>;
export type CompetitionRow = Selectable<CompetitionsTable>;
export type UserMessageRow = Selectable<UserMessagesTable>;
export type PriceAlertRow = Selectable<PriceAlertsTable>;
