/**
 * New-share and new-bond subscription (DOMAIN.md "New share / bond subscription"): subscribe in
 * an issue's window, the verifiable draw, paying for winning lots from the newstock account, chip-grab
 * placement, and on listing the paid lots becoming an ordinary position (in the newstock account, sellable
 * like any other from the listing day).
 *
 * Rules decided here:
 * - add.do: one subscription per user and issue, 1 … the issue's per-user cap lots, inside the window
 *   (09:30-15:00 Shanghai on the online issue date), KYC as for orders. Each lot gets one allocation
 *   number, consecutive per subscription, in the order subscriptions arrive. No money moves (the real
 *   rule: winners pay after the draw).
 * - The draw runs at the issue's draw time (engine, runDueNewShareEvents): W = min(online lots, numbers)
 *   winning numbers by src/shared/newshare-draw.ts from the issue's seed. The seed is
 *   HMAC-SHA256(station secret, "newshare-draw:" + code): fixed per issue by a secret made with the
 *   database, so no one picks it after seeing the subscriptions; its SHA-256 is published from the start,
 *   the seed itself once drawn. A subscription with winning numbers is `winning`, else `not_winning`.
 * - submitSubscribe.do: a winning subscription pays won lots × 100 × issue price from the newstock account
 *   (a ledger 'buy' entry, ref 'newshare') before the payment deadline. At the deadline the unpaid winning
 *   lots are forfeited: the subscription is `abandoned` (spec: "unpaid by the deadline").
 * - buyNewStockQc.do (chip grab): placement lots at the placement price, first come first served until the
 *   issue's placement lots are gone (the issue row is locked, so exactly that many are sold), paid at once;
 *   once per user and issue, at most the per-user cap, in the subscription window.
 * - Listing (at the listing time): every paid subscription becomes an open long position, leverage 1,
 *   open price = the price paid, margin = the amount paid (already out of the balance), no fees, sellable
 *   from the listing. Its state is then `listed`, and `closed` once that position is closed.
 * - Each event (draw, deadline, listing) of an issue runs once: its issue row is locked and its mark
 *   (drawn_at, settled_at, listed_at) checked and written in the same transaction as its effects.
 *
 * This module is the door to new shares; the work is split by what it does:
 * - new-share-records.ts: the calendar and its issues' phases, the subscriptions as the user sees them;
 * - new-share-subscribing.ts: subscribing, the chip grab and paying for winning lots;
 * - new-share-events.ts: the draw, the payment deadline and the listing.
 */
export { NUMBER_BASE, issueSeed, listIssues, placementIssues, listSubscriptions } from './new-share-records';
export { type SubscribeOrder, subscribe, grabPlacement, payWinning } from './new-share-subscribing';
export { type NewShareEventsResult, runDueNewShareEvents } from './new-share-events';
