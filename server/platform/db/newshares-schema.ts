/** The new-share tables (migration 0007-newshares): issues' draw state, subscriptions, station secrets. */
import type { Generated } from 'kysely';
import type { SubscriptionKind } from '../../../src/shared/api/newshares';

export interface StationSecretsTable {
  name: string;
  /** Hex; never sent to a client. */
  value: string;
  created_at: number;
}

export interface NewshareIssuesTable {
  code: string;
  numbers_count: Generated<number>;
  placement_sold: Generated<number>;
  drawn_at: number | null;
  /** The draw seed, stored when the draw runs (and published from then on). */
  seed: string | null;
  winners_count: number | null;
  /** JSON array of the winning allocation numbers, ascending. */
  winning_numbers: string | null;
  settled_at: number | null;
  listed_at: number | null;
}

/** Stored states; 'closed' is read off the position (a listed subscription whose position is closed). */
export type StoredSubscriptionState =
  'subscribed' | 'not_winning' | 'winning' | 'paid' | 'abandoned' | 'listed';

export interface NewshareSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  account_id: number;
  code: string;
  kind: SubscriptionKind;
  state: StoredSubscriptionState;
  lots: number;
  shares: number;
  price: number;
  first_number: number | null;
  won_lots: number | null;
  /** JSON array of this subscription's winning numbers. */
  winning_numbers: Generated<string>;
  /** Minor units. */
  amount_due: Generated<number>;
  amount_paid: Generated<number>;
  position_id: number | null;
  created_at: number;
  drawn_at: number | null;
  paid_at: number | null;
  listed_at: number | null;
  updated_at: number;
}
