/** The station's tables as Kysely sees them. Money columns are integers in minor units; times are epoch ms. */
import type { Generated, Insertable, Kysely, Selectable, Transaction } from 'kysely';

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
  type: 'main' | 'index' | 'newstock' | 'hk' | 'us';
  currency: 'CNY' | 'HKD' | 'USD';
  /** Minor units; always the sum of the account's ledger entries. */
  balance: number;
}

export interface LedgerEntriesTable {
  id: Generated<number>;
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

export interface PositionsTable {
  id: Generated<number>;
  user_id: number;
  account_id: number;
  code: string;
  market: 'a' | 'star' | 'hk' | 'us';
  direction: 'long' | 'short';
  state: 'open' | 'closed';
  lots: number;
  shares: number;
  leverage: number;
  open_price: number;
  /** Minor units: open price × shares. */
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

export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  sms_codes: SmsCodesTable;
  bank_cards: BankCardsTable;
  accounts: AccountsTable;
  ledger_entries: LedgerEntriesTable;
  positions: PositionsTable;
  idempotency_keys: IdempotencyKeysTable;
}

export type Db = Kysely<DB>;
export type Tx = Transaction<DB>;
export type DbOrTx = Db | Tx;

export type UserRow = Selectable<UsersTable>;
export type AccountRow = Selectable<AccountsTable>;
export type PositionRow = Selectable<PositionsTable>;
export type NewPosition = Insertable<PositionsTable>;
export type LedgerRow = Selectable<LedgerEntriesTable>;
