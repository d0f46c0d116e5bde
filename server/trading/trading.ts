/**
 * Market orders on every market: buy opens a long (or, for indexes and futures, a short) position with
 * margin and fees, sell closes all or part of one, top-up adds margin to an open position. Every balance
 * change is a ledger entry in the same transaction as the position change, and each call runs once per
 * requestId.
 *
 * Rules decided here:
 * - Indexes trade CFD-style and futures by contract: lots are contracts, shares = contracts × multiplier
 *   (the futures contract's, or the index setting's yuan per point), so value = price × shares everywhere.
 *   Both trade from the index account and are T+0.
 * - Opening a long buys and opening a short sells; closing does the opposite. Buying at limit-up and selling
 *   at limit-down are refused (PRICE_LIMIT).
 * - Stops must lie on the winning side (stop profit) and the losing side (stop loss) of the current price:
 *   above and below it for a long, below and above it for a short.
 * - Every buy checks the account's available funds (balance − what pending limit orders hold) with the
 *   account row locked.
 * - A top-up moves available cash into a position's margin: at most what the position borrowed (a long:
 *   open value − margin) or its open value (a short), at any hour, never into a closed position.
 */
import { toMinor } from '../../src/shared/money';
import type { Direction, LedgerEntryType, Market, Page, Position } from '../../src/shared/api/types';
import { validStops, type AccountRiskState } from '../../src/shared/risk';
import { checkLots } from '../../src/shared/validation';
import type { ContractMarket, Settings } from '../config';
import { AppError, assertFields } from '../platform/errors';
import { placeholders, prepared } from '../platform/db/prepared';
import type { PositionRow, Tx } from '../platform/db/schema';
import type { Instrument } from '../market/catalogue';
import { accountRiskStateOf, accountRiskStates } from './account-risk';
import type { Station } from '../platform/station';
import { tradeFees, type FeeBreakdown } from './fees';
import { answerOnce, runOnce, storedAnswer } from '../platform/idempotency';
import { requireKyc } from '../identity/kyc-gate';
import { lockAccount, post, postingAgainst, type UserEntry } from '../ledger/ledger';
import { assertLeverage, marginFor, proportionalPart } from './margin';
import { toPosition } from './views';

export interface BuyOrder {
  code: string;
  lots: number;
  leverage: number;
  direction?: Direction | undefined;
  stopProfit?: number | undefined;
  stopLoss?: number | undefined;
  requestId: string;
}

export interface SellOrder {
  positionId: number;
  lots?: number | undefined;
  requestId: string;
}

export interface TopUpOrder {
  positionId: number;
  /** Major units, at most 2 decimals. */
  amount: number;
  requestId: string;
}

/** Which codes a buy call accepts: buy.do any market, buyIndex.do indexes only, buyFutures.do futures only. */
export type BuyVenue = 'any' | ContractMarket;

/** A code resolved for trading: its instrument, the API market and how many shares one lot holds. */
export interface Tradable {
  instrument: Instrument;
  market: Market;
  /** Stocks: shares per lot; indexes and futures: the contract multiplier (shares per contract). */
  unitsPerLot: number;
}

export function isContractMarket(market: Market): market is ContractMarket {
  return market === 'index' || market === 'futures';
}

/** Shares in one lot of a stock: the market's rule, or the instrument's board lot (Hong Kong). */
export function sharesPerLot(station: Station, instrument: Instrument): number {
  return station.config.settings.lotRules[instrument.market].sharesPerLot ?? instrument.lotSize;
}

/** Yuan per point of one index contract (CFD-style). */
export function indexMultiplier(settings: Settings, code: string): number {
  return settings.indexMultiplier.byCode[code] ?? settings.indexMultiplier.default;
}

/** The code as something tradable on `venue`, or NOT_FOUND. */
export function tradableOf(station: Station, code: string, venue: BuyVenue = 'any'): Tradable {
  const found = station.market.findTradable(code);
  if (!found || (venue !== 'any' && found.market !== venue)) throw new AppError('NOT_FOUND');
  const { instrument, market } = found;
  const unitsPerLot =
    market === 'index'
      ? indexMultiplier(station.config.settings, instrument.code)
      : (found.contractMultiplier ?? sharesPerLot(station, instrument));
  return { instrument, market, unitsPerLot };
}

/** Most lots (contracts) in one order of a market. */
export function maxLotsPerOrder(settings: Settings, market: Market): number {
  return isContractMarket(market)
    ? settings.contractRules[market].maxContractsPerOrder
    : settings.lotRules[market].maxLotsPerOrder;
}

/** DOMAIN.md: buying at limit-up or selling at limit-down is refused. */
export function assertPriceLimit(
  detail: { price: number; limitUp: number | null; limitDown: number | null },
  buying: boolean,
): void {
  if (buying && detail.limitUp !== null && detail.price >= detail.limitUp) throw new AppError('PRICE_LIMIT');
  if (!buying && detail.limitDown !== null && detail.price <= detail.limitDown) {
    throw new AppError('PRICE_LIMIT');
  }
}

/** Stops on the right side of `price` for the direction, with one message naming the rule. */
export function assertStops(
  direction: Direction,
  price: number,
  stops: { stopProfit?: number | undefined; stopLoss?: number | undefined },
): void {
  const long = direction === 'long';
  const { stopProfit: profitOk, stopLoss: lossOk } = validStops(direction, price, {
    stopProfit: stops.stopProfit ?? null,
    stopLoss: stops.stopLoss ?? null,
  });
  if (profitOk && lossOk) return;
  throw new AppError('VALIDATION', {
    fields: { ...(profitOk ? {} : { stopProfit: 'invalid' }), ...(lossOk ? {} : { stopLoss: 'invalid' }) },
    msgKey: long ? 'STOPS_LONG' : 'STOPS_SHORT',
  });
}

function positionView(station: Station, row: PositionRow, account?: AccountRiskState): Position {
  const instrument = tradableOf(station, row.code).instrument;
  const quote = row.state === 'open' ? station.market.quote(instrument) : null;
  return toPosition(row, instrument, quote, station.config.settings.liquidationLine, account);
}

/** What the ledger entries of one trade share. */
interface TradeRef {
  refType: string;
  refId: number;
  time: number;
  accountId: number;
  userId: number;
}

/**
 * A user's ledger entry of a trade, written out field by field: on this V8 `{ ...ref, type, amount, note }`
 * costs over a microsecond per added key (issue 6 bench).
 */
function tradeEntry(ref: TradeRef, type: LedgerEntryType, amount: number, note: string): UserEntry {
  return { accountId: ref.accountId, userId: ref.userId, type, amount, note };
}

/** A position row before the database gives it an id. */
type NewPositionRow = Omit<PositionRow, 'id'>;

const POSITION_COLUMNS = Object.keys({
  user_id: true,
  account_id: true,
  code: true,
  market: true,
  direction: true,
  state: true,
  lots: true,
  shares: true,
  leverage: true,
  open_price: true,
  open_value: true,
  margin: true,
  buy_fee: true,
  buy_fee_detail: true,
  sell_fee: true,
  sell_fee_detail: true,
  stamp_duty: true,
  deferred_fee: true,
  stop_profit: true,
  stop_loss: true,
  opened_at: true,
  sellable_from: true,
  closed_at: true,
  close_price: true,
  close_value: true,
  close_reason: true,
  split_from: true,
} satisfies Record<keyof NewPositionRow, true>) as (keyof NewPositionRow)[];

/** Writes a position (every column given); answers the row as stored. */
const insertPosition = prepared<NewPositionRow>()((db, p) =>
  db.insertInto('positions').values(placeholders(p, POSITION_COLUMNS)).returningAll(),
);

/** The columns a close sets on the position it closes whole. */
type ClosedFields = Pick<
  PositionRow,
  | 'state'
  | 'closed_at'
  | 'close_price'
  | 'close_value'
  | 'close_reason'
  | 'sell_fee'
  | 'sell_fee_detail'
  | 'stamp_duty'
>;
const CLOSED_COLUMNS = Object.keys({
  state: true,
  closed_at: true,
  close_price: true,
  close_value: true,
  close_reason: true,
  sell_fee: true,
  sell_fee_detail: true,
  stamp_duty: true,
} satisfies Record<keyof ClosedFields, true>) as (keyof ClosedFields)[];

const closeWholePosition = prepared<ClosedFields & { id: number }>()((db, p) =>
  db.updateTable('positions').set(placeholders(p, CLOSED_COLUMNS)).where('id', '=', p.id),
);

const selectOwnPosition = prepared<{ id: number; userId: number }>()((db, p, dialect) =>
  db
    .selectFrom('positions')
    .selectAll()
    .where('id', '=', p.id)
    .where('user_id', '=', p.userId)
    .$if(dialect === 'postgres', (q) => q.forUpdate()),
);

const BUY_CALLS: Record<BuyVenue, string> = { any: 'buy', index: 'buyIndex', futures: 'buyFutures' };

/**
 * A market order that opens a position: buy.do (any market), buyIndex.do and buyFutures.do (`venue`).
 * Checks the quantity, leverage, direction, KYC, session, price limit and stops, then in one transaction
 * the available funds, and writes the position with its margin and fee entries.
 */
export function buy(
  station: Station,
  userId: number,
  order: BuyOrder,
  venue: BuyVenue = 'any',
): Promise<Position> {
  const call = BUY_CALLS[venue];
  return answerOnce(station.db, { userId, requestId: order.requestId, call }, () =>
    buyOnce(station, userId, order, venue, call),
  );
}

/** buy without the first read of its key (answerOnce). */
async function buyOnce(
  station: Station,
  userId: number,
  order: BuyOrder,
  venue: BuyVenue,
  call: string,
): Promise<Position> {
  const { settings } = station.config;
  const tradable = tradableOf(station, order.code, venue);
  const { instrument, market } = tradable;
  const direction: Direction = order.direction ?? 'long';
  const contracts = isContractMarket(market);
  assertFields({ lots: checkLots(order.lots, maxLotsPerOrder(settings, market)) });
  if (direction === 'short' && !contracts && !settings.shortStocks) {
    throw new AppError('VALIDATION', { fields: { direction: 'invalid' }, msgKey: 'SHORT_NOT_ALLOWED' });
  }
  assertLeverage(order.leverage, settings.leverage[market]);
  await requireKyc(station, userId, 'trading');

  const now = station.clock.now();
  // One look at the market for the status, price and limits.
  const detail = station.market.detail(instrument, now);
  // A suspended instrument says so, rather than that its market is closed.
  if (detail.status === 'suspended') throw new AppError('SUSPENDED');
  if (detail.status !== 'trading') throw new AppError('OUTSIDE_TRADING_HOURS');
  assertPriceLimit(detail, direction === 'long');
  assertStops(direction, detail.price, order);

  const shares = order.lots * tradable.unitsPerLot;
  const value = toMinor(detail.price * shares);
  const margin = marginFor(value, order.leverage);
  const fees = tradeFees(market, 'buy', { shares, value }, settings.fees);
  const accountType = settings.tradingAccount[market];
  const sellableFrom = contracts ? now : station.market.sellableFrom(instrument, now);

  return runOnce(station.db, { userId, requestId: order.requestId, call, now }, async (trx) => {
    const account = await lockAccount(trx, station.dialect, userId, accountType);
    if (account.balance - account.frozen < margin + fees.total) throw new AppError('INSUFFICIENT_FUNDS');
    const [inserted] = await insertPosition.rows(trx, {
      user_id: userId,
      account_id: account.id,
      code: instrument.code,
      market,
      direction,
      state: 'open',
      lots: order.lots,
      shares,
      leverage: order.leverage,
      open_price: detail.price,
      open_value: value,
      margin,
      buy_fee: fees.total,
      buy_fee_detail: JSON.stringify(fees.items),
      sell_fee: 0,
      sell_fee_detail: null,
      stamp_duty: 0,
      deferred_fee: 0,
      stop_profit: order.stopProfit ?? null,
      stop_loss: order.stopLoss ?? null,
      opened_at: now,
      sellable_from: sellableFrom,
      closed_at: null,
      close_price: null,
      close_value: null,
      close_reason: null,
      split_from: null,
    });
    if (!inserted) throw new Error('buy: the position was not written');
    const ref = { refType: 'position', refId: inserted.id, time: now, accountId: account.id, userId };
    const side = direction === 'short' ? ' short' : '';
    // The margin goes to the market (the position's counterparty), the fees to the fees earned.
    await post(trx, {
      time: ref.time,
      refType: ref.refType,
      refId: ref.refId,
      entries: [
        tradeEntry(ref, 'buy', -margin, `${instrument.code} ×${shares}${side}`),
        ...(fees.total > 0 ? [tradeEntry(ref, 'buy_fee', -fees.total, instrument.code)] : []),
      ],
      house: [
        { house: 'market', amount: margin },
        { house: 'fees', amount: fees.total },
      ],
    });
    const state = await accountRiskStateOf(trx, station, account.id);
    return toPosition(inserted, instrument, detail, settings.liquidationLine, state);
  });
}

/** Splits a fee breakdown (JSON) for a partial close: the closed part and what stays with the open part. */
function splitDetail(json: string, lots: number, ofLots: number): { closed: string; remaining: string } {
  const items = JSON.parse(json) as Record<string, number>;
  const closed: Record<string, number> = {};
  const remaining: Record<string, number> = {};
  for (const [name, amount] of Object.entries(items)) {
    closed[name] = proportionalPart(amount, lots, ofLots);
    remaining[name] = amount - closed[name];
  }
  return { closed: JSON.stringify(closed), remaining: JSON.stringify(remaining) };
}

export interface CloseRequest {
  /** Lots to close; the whole position when equal to its lots. */
  lots: number;
  /** The price the position closes at (the current price, or a stop's or a liquidation's crossing price). */
  price: number;
  reason: NonNullable<PositionRow['close_reason']>;
  now: number;
}

/**
 * Closes all or part of a locked open position inside the caller's transaction: writes the closed record
 * (the position itself, or a split-off record for a partial close), credits margin + pnl and debits the
 * closing fees in the ledger. Returns the closed record's id. The caller checks sessions, T+1 and limits.
 */
export async function closePositionTx(
  trx: Tx,
  station: Station,
  position: PositionRow,
  close: CloseRequest,
): Promise<number> {
  return (await closePosition(trx, station, position, close)).closed.id;
}

/**
 * closePositionTx answering the rows as they now are: the closed record, and after a partial close the open
 * remainder (so the caller need not read them back).
 */
async function closePosition(
  trx: Tx,
  station: Station,
  position: PositionRow,
  close: CloseRequest,
): Promise<{ closed: PositionRow; remaining: PositionRow | null }> {
  const { settings } = station.config;
  const { lots } = close;
  const whole = lots === position.lots;
  const shares = whole ? position.shares : (position.shares / position.lots) * lots;
  const part = (amount: number) => (whole ? amount : proportionalPart(amount, lots, position.lots));
  const openValue = part(position.open_value);
  const margin = part(position.margin);
  const buyFee = part(position.buy_fee);
  const closeValue = toMinor(close.price * shares);
  const pnl = position.direction === 'long' ? closeValue - openValue : openValue - closeValue;
  const fees: FeeBreakdown = tradeFees(position.market, 'sell', { shares, value: closeValue }, settings.fees);
  const sellFee = fees.total - fees.stampDuty;

  const closedFields: ClosedFields = {
    state: 'closed',
    closed_at: close.now,
    close_price: close.price,
    close_value: closeValue,
    close_reason: close.reason,
    sell_fee: sellFee,
    sell_fee_detail: JSON.stringify(fees.items),
    stamp_duty: fees.stampDuty,
  };
  let closed: PositionRow;
  let remaining: PositionRow | null = null;
  if (whole) {
    // The id first: a spread followed by new keys is slow on this V8 (issue 6 bench).
    await closeWholePosition.rows(trx, { id: position.id, ...closedFields });
    closed = { ...position, ...closedFields };
  } else {
    const detailSplit = splitDetail(position.buy_fee_detail, lots, position.lots);
    const { id: _id, ...rest } = position;
    const [inserted] = await insertPosition.rows(trx, {
      ...rest,
      ...closedFields,
      lots,
      shares,
      open_value: openValue,
      margin,
      buy_fee: buyFee,
      buy_fee_detail: detailSplit.closed,
      deferred_fee: part(position.deferred_fee),
      split_from: position.id,
    });
    if (!inserted) throw new Error('close: the closed part was not written');
    closed = inserted;
    const kept = {
      lots: position.lots - lots,
      shares: position.shares - shares,
      open_value: position.open_value - openValue,
      margin: position.margin - margin,
      buy_fee: position.buy_fee - buyFee,
      buy_fee_detail: detailSplit.remaining,
      deferred_fee: position.deferred_fee - part(position.deferred_fee),
    };
    await trx.updateTable('positions').set(kept).where('id', '=', position.id).execute();
    remaining = { ...position, ...kept };
  }

  const ref = {
    refType: 'position',
    refId: closed.id,
    time: close.now,
    accountId: position.account_id,
    userId: position.user_id,
  };
  // The market pays back the margin with the profit (or keeps the loss); fees and stamp duty are earned.
  await post(trx, {
    time: ref.time,
    refType: ref.refType,
    refId: ref.refId,
    entries: [
      tradeEntry(ref, 'sell', margin + pnl, `${position.code} ×${shares}`),
      ...(sellFee > 0 ? [tradeEntry(ref, 'sell_fee', -sellFee, position.code)] : []),
      ...(fees.stampDuty > 0 ? [tradeEntry(ref, 'stamp_duty', -fees.stampDuty, position.code)] : []),
    ],
    house: [
      { house: 'market', amount: -(margin + pnl) },
      { house: 'fees', amount: sellFee + fees.stampDuty },
    ],
  });

  return { closed, remaining };
}

/** The user's position, its row locked on PostgreSQL (SQLite serialises transactions); else NOT_FOUND. */
async function lockOwnPosition(trx: Tx, userId: number, positionId: number): Promise<PositionRow> {
  const [position] = await selectOwnPosition.rows(trx, { id: positionId, userId });
  if (!position) throw new AppError('NOT_FOUND');
  return position;
}

export function sell(station: Station, userId: number, order: SellOrder): Promise<Position> {
  const call = 'sell';
  return answerOnce(station.db, { userId, requestId: order.requestId, call }, () =>
    sellOnce(station, userId, order, call),
  );
}

/** sell without the first read of its key (answerOnce). */
async function sellOnce(station: Station, userId: number, order: SellOrder, call: string): Promise<Position> {
  const { settings } = station.config;
  const now = station.clock.now();

  return runOnce(station.db, { userId, requestId: order.requestId, call, now }, async (trx) => {
    const position = await lockOwnPosition(trx, userId, order.positionId);
    if (position.state !== 'open') throw new AppError('ALREADY_DONE');
    const lots = order.lots ?? position.lots;
    assertFields({ lots: checkLots(lots, position.lots) });

    const { instrument } = tradableOf(station, position.code);
    const detail = station.market.detail(instrument, now);
    if (detail.status === 'suspended') throw new AppError('SUSPENDED');
    if (detail.status !== 'trading') {
      throw new AppError('OUTSIDE_TRADING_HOURS', { msgKey: 'CLOSE_OUTSIDE_TRADING_HOURS' });
    }
    if (now < position.sellable_from) throw new AppError('T_PLUS_ONE');
    // Closing a long sells; closing a short buys back.
    assertPriceLimit(detail, position.direction === 'short');

    const { closed, remaining } = await closePosition(trx, station, position, {
      lots,
      price: detail.price,
      reason: 'user',
      now,
    });
    // The answer: the closed position, or after a partial sell what remains open.
    const state = remaining ? await accountRiskStateOf(trx, station, remaining.account_id) : undefined;
    return toPosition(remaining ?? closed, instrument, detail, settings.liquidationLine, state);
  });
}

/** The most a top-up may add: what a long borrowed (open value − margin), a short's open value. */
export function topUpMaximum(position: PositionRow): number {
  const cap = position.direction === 'long' ? position.open_value - position.margin : position.open_value;
  return Math.max(0, cap);
}

/** Moves available cash into an open position's margin (ledger type top_up), lowering its risk. */
export async function topUp(station: Station, userId: number, order: TopUpOrder): Promise<Position> {
  const call = 'topUp';
  const earlier = await storedAnswer<Position>(station.db, userId, order.requestId, call);
  if (earlier !== undefined) return earlier;
  const amount = Math.round(order.amount * 100);
  const wholeCents = Number.isFinite(order.amount) && Math.abs(order.amount * 100 - amount) < 1e-6;
  if (!wholeCents) throw new AppError('VALIDATION', { fields: { amount: 'invalid' } });
  if (amount <= 0) {
    throw new AppError('VALIDATION', { fields: { amount: 'invalid' }, msgKey: 'TOP_UP_NOT_POSITIVE' });
  }
  const { settings } = station.config;
  const now = station.clock.now();

  return runOnce(station.db, { userId, requestId: order.requestId, call, now }, async (trx) => {
    const position = await lockOwnPosition(trx, userId, order.positionId);
    if (position.state !== 'open') throw new AppError('ALREADY_DONE', { msgKey: 'POSITION_CLOSED' });
    const maximum = topUpMaximum(position);
    if (amount > maximum) {
      throw new AppError('ABOVE_MAXIMUM', {
        msgKey: 'TOP_UP_ABOVE_MAXIMUM',
        params: { max: (maximum / 100).toFixed(2) },
      });
    }
    const account = await trx
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', position.account_id)
      .$if(station.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirstOrThrow();
    if (account.balance - account.frozen < amount) throw new AppError('INSUFFICIENT_FUNDS');
    const margin = position.margin + amount;
    await trx.updateTable('positions').set({ margin }).where('id', '=', position.id).execute();
    await post(
      trx,
      postingAgainst('market', {
        accountId: account.id,
        userId,
        type: 'top_up',
        amount: -amount,
        time: now,
        refType: 'position',
        refId: position.id,
        note: position.code,
      }),
    );
    const { instrument } = tradableOf(station, position.code);
    const updated = { ...position, margin };
    const state = await accountRiskStateOf(trx, station, account.id);
    const quote = station.market.quote(instrument, now);
    return toPosition(updated, instrument, quote, settings.liquidationLine, state);
  });
}

export interface StopsOrder {
  positionId: number;
  /** The new stop profit; absent: the position keeps none. */
  stopProfit?: number | undefined;
  /** The new stop loss; absent: the position keeps none. */
  stopLoss?: number | undefined;
  requestId: string;
}

/**
 * setStops.do: an open position's stops become exactly the ones given (an absent one is removed), each on
 * its side of the current price for the position's direction (assertStops), at any hour. Moves no money,
 * but runs once per requestId like every call that changes a position.
 */
export async function setStops(station: Station, userId: number, order: StopsOrder): Promise<Position> {
  const call = 'setStops';
  const earlier = await storedAnswer<Position>(station.db, userId, order.requestId, call);
  if (earlier !== undefined) return earlier;
  const { settings } = station.config;
  const now = station.clock.now();

  return runOnce(station.db, { userId, requestId: order.requestId, call, now }, async (trx) => {
    const position = await lockOwnPosition(trx, userId, order.positionId);
    if (position.state !== 'open') throw new AppError('ALREADY_DONE', { msgKey: 'POSITION_CLOSED' });
    const { instrument } = tradableOf(station, position.code);
    const quote = station.market.quote(instrument, now);
    assertStops(position.direction, quote.price, order);
    const stops = { stop_profit: order.stopProfit ?? null, stop_loss: order.stopLoss ?? null };
    await trx.updateTable('positions').set(stops).where('id', '=', position.id).execute();
    const updated = { ...position, ...stops };
    const state = await accountRiskStateOf(trx, station, position.account_id);
    return toPosition(updated, instrument, quote, settings.liquidationLine, state);
  });
}

/** exitsStock.do: whether the user holds the code in an open position, and how many lots (contracts). */
export async function holding(
  station: Station,
  userId: number,
  code: string,
): Promise<{ held: boolean; lots: number; positions: number }> {
  const { instrument } = tradableOf(station, code);
  const row = await station.db
    .selectFrom('positions')
    .where('user_id', '=', userId)
    .where('code', '=', instrument.code)
    .where('state', '=', 'open')
    .select((eb) => [
      eb.fn.countAll<number>().as('positions'),
      eb.fn.coalesce(eb.fn.sum<number>('lots'), eb.lit(0)).as('lots'),
    ])
    .executeTakeFirstOrThrow();
  const positions = Number(row.positions);
  return { held: positions > 0, lots: Number(row.lots), positions };
}

export async function listPositions(
  station: Station,
  userId: number,
  query: { state: 'open' | 'closed'; market?: Market | undefined; pageNum: number; pageSize: number },
): Promise<Page<Position>> {
  // A fund allocation's sub-account lists its positions itself (fundsList.do).
  const ownAccounts = station.db
    .selectFrom('accounts')
    .select('id')
    .where('user_id', '=', userId)
    .where('type', 'in', ['main', 'index', 'newstock', 'hk', 'us']);
  const base = station.db
    .selectFrom('positions')
    .where('user_id', '=', userId)
    .where('account_id', 'in', ownAccounts)
    .where('state', '=', query.state)
    .$if(query.market !== undefined, (q) => q.where('market', '=', query.market!));
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy(query.state === 'closed' ? 'closed_at' : 'opened_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize)
    .execute();
  // The account-wide liquidation price: each account's state read once for the page.
  const states =
    query.state === 'open'
      ? await accountRiskStates(
          station.db,
          station,
          rows.map((row) => row.account_id),
        )
      : new Map<number, AccountRiskState>();
  return {
    list: rows.map((row) => positionView(station, row, states.get(row.account_id))),
    total: Number(total),
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}
