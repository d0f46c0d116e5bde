/**
 * New-share and new-bond subscription (spec §7 "New shares and block trades"): the shapes of its calls, added
 * to the one call map (calls.ts `ApiCalls`) by declaration merging, so the app's client and the station's
 * routes type them like every other call. Money in major units, prices in yuan, times in epoch ms, dates
 * YYYY-MM-DD (Shanghai).
 */
import type { PageQuery } from './calls';
import type { Page } from './types';

export type NewIssueType = 'share' | 'bond';

/**
 * Where an issue stands now: before its subscription window, in it, waiting for the draw, drawn (winners
 * paying), listed (paid lots are positions).
 */
export type NewIssuePhase = 'upcoming' | 'subscribing' | 'awaiting_draw' | 'drawn' | 'listed';

/** The published side of an issue's verifiable draw (src/shared/newshare-draw.ts). */
export interface NewIssueDraw {
  /** SHA-256 of the seed, published from the start: the seed cannot change afterwards. */
  seedHash: string;
  /** The seed, published once the draw has run; null before. */
  seed: string | null;
  /** The allocation numbers are `numbersCount` consecutive numbers from `numbersFrom`. */
  numbersFrom: number;
  numbersCount: number;
  /** Lots the draw gives out: min(online lots, numbers). Known once drawn. */
  winnersCount: number | null;
  /** Winning allocation numbers, ascending; null before the draw. */
  winningNumbers: number[] | null;
  drawnAt: number | null;
}

export interface NewIssue {
  code: string;
  name: string;
  nameEn: string;
  type: NewIssueType;
  /** The market the listing trades in (STAR and ChiNext listings: star). */
  market: 'a' | 'star';
  issuePrice: number;
  /** Price of a chip-grab placement lot (buyNewStockQc.do): first come, first served, no draw. */
  placementPrice: number;
  /** Issue P/E; null for a bond. */
  pe: number | null;
  /** Shares (bonds) issued in all. */
  issueVolume: number;
  /** Lots the station's online draw gives out. */
  onlineLots: number;
  /** Most lots one user may subscribe (and grab in placement). */
  perUserCap: number;
  sharesPerLot: number;
  placementLots: number;
  placementLeft: number;
  /** Online issue (subscription) date, draw date, listing date. */
  subscribeDate: string;
  drawDate: string;
  listingDate: string;
  subscribeOpensAt: number;
  subscribeClosesAt: number;
  drawAt: number;
  /** Winners pay before this instant; unpaid winning lots are then forfeited. */
  payDeadline: number;
  listingAt: number;
  phase: NewIssuePhase;
  draw: NewIssueDraw;
}

/** subscribed (awaiting the draw) → not_winning | winning → paid | abandoned; paid → listed → closed. */
export type SubscriptionState =
  'subscribed' | 'not_winning' | 'winning' | 'paid' | 'abandoned' | 'listed' | 'closed';

/** lottery: add.do, drawn; placement: buyNewStockQc.do, paid at once. */
export type SubscriptionKind = 'lottery' | 'placement';

export interface NewShareSubscription {
  id: number;
  code: string;
  name: string;
  type: NewIssueType;
  kind: SubscriptionKind;
  state: SubscriptionState;
  /** Lots subscribed (placement: lots grabbed). */
  lots: number;
  shares: number;
  /** Price per share (bond) paid: the issue price, or the placement price. */
  price: number;
  /** The subscription's allocation numbers: firstNumber … lastNumber (lottery only). */
  firstNumber: number | null;
  lastNumber: number | null;
  /** Lots won (placement: all of them); null before the draw. */
  wonLots: number | null;
  winningNumbers: number[];
  /** What the won lots cost: wonLots × sharesPerLot × price. */
  amountDue: number;
  amountPaid: number;
  payDeadline: number;
  listingAt: number;
  /** The position the paid lots became on listing. */
  positionId: number | null;
  createdAt: number;
  drawnAt: number | null;
  paidAt: number | null;
  listedAt: number | null;
}

declare module './calls' {
  interface ApiCalls {
    /** The issue calendar (shares and bonds), newest subscription date first; `code` picks one issue. */
    'GET /user/newStockList.do': {
      in: PageQuery & { type?: NewIssueType; code?: string };
      out: Page<NewIssue>;
    };
    /** Issues whose chip-grab placement is open now, with the lots left. */
    'GET /user/newStockQc.do': { in: { type?: NewIssueType }; out: NewIssue[] };
    /** Chip-grab placement: lots at the placement price, paid from the newstock account at once. */
    'POST /user/buyNewStockQc.do': {
      in: { code: string; lots: number; requestId: string };
      out: NewShareSubscription;
    };
    /** Subscribe to an issue in its window: allocation numbers, no money moves until a win is paid. */
    'POST /user/add.do': { in: { code: string; lots: number; requestId: string }; out: NewShareSubscription };
    /** Pay a winning subscription from the newstock account before its deadline. */
    'POST /user/submitSubscribe.do': { in: { id: number; requestId: string }; out: NewShareSubscription };
    /** The user's subscriptions (both kinds), newest first; `code` for one issue's. */
    'GET /user/getOneSubscribeByUserId.do': {
      in: PageQuery & { code?: string; kind?: SubscriptionKind };
      out: Page<NewShareSubscription>;
    };
    /** Winning records: the user's subscriptions that won lots, newest first. */
    'GET /user/getzqjl.do': { in: PageQuery; out: Page<NewShareSubscription> };
  }
}
