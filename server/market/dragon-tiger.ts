/**
 * The simulated Dragon Tiger list (龙虎榜) of the A-share markets: the stocks whose close deviated far from
 * the previous close on the last complete trading day, with the seats that bought and sold them most.
 */
import type {
  LhbEntry as DragonTigerEntry,
  LhbList as DragonTigerList,
  LhbSeat as DragonTigerSeat,
} from '../../src/shared/api/types';
import type { InstrumentCatalogue } from './instrument-catalogue';
import { hashSeed, SeededRandom } from './prng';
import { round } from './quotes';
import { DAY_MS, isTradingDay, previousTradingDay, sessionPosition } from './sessions';

/** Seats the simulated list draws from: real seat names of the kind the exchanges publish. */
const SEATS: readonly { seat: string; kind: DragonTigerSeat['kind'] }[] = [
  { seat: '机构专用', kind: 'institution' },
  { seat: '沪股通专用', kind: 'connect' },
  { seat: '深股通专用', kind: 'connect' },
  { seat: '东方财富证券拉萨团结路第二证券营业部', kind: 'branch' },
  { seat: '东方财富证券拉萨东环路第二证券营业部', kind: 'branch' },
  { seat: '华泰证券上海武定路证券营业部', kind: 'branch' },
  { seat: '中信证券上海溧阳路证券营业部', kind: 'branch' },
  { seat: '国泰君安证券上海江苏路证券营业部', kind: 'branch' },
  { seat: '中国银河证券绍兴证券营业部', kind: 'branch' },
  { seat: '招商证券深圳深南东路证券营业部', kind: 'branch' },
  { seat: '光大证券宁波解放南路证券营业部', kind: 'branch' },
  { seat: '财通证券杭州上塘路证券营业部', kind: 'branch' },
  { seat: '国盛证券宁波桑田路证券营业部', kind: 'branch' },
  { seat: '开源证券西安西大街证券营业部', kind: 'branch' },
  { seat: '华鑫证券上海分公司', kind: 'branch' },
  { seat: '中国中金财富证券北京宋庄路证券营业部', kind: 'branch' },
];

/** A close at least this far from the previous close puts an A-share on the Dragon Tiger list. */
const LISTING_DEVIATION = 0.07;

/**
 * The list of the last complete trading day of one A-share market: every stock whose close deviated 7% or
 * more from the previous close, with five top buying and five top selling seats. The seats and their amounts
 * are drawn from the seed, the stock and the day, and add up to a share of its turnover.
 */
export function dragonTigerList(
  catalogue: InstrumentCatalogue,
  market: 'a' | 'star',
  t: number,
): DragonTigerList {
  const list: DragonTigerEntry[] = [];
  let listedDay: number | null = null;
  for (const instrument of catalogue.stocks) {
    if (instrument.market !== market) continue;
    const hours = catalogue.hours(instrument);
    const series = catalogue.series(instrument);
    const pos = sessionPosition(t, hours);
    const day =
      pos.elapsed >= series.spec.minutesPerDay && isTradingDay(pos.day, hours)
        ? pos.day
        : previousTradingDay(pos.day, hours);
    listedDay ??= day;
    const r = series.record(day);
    if (!r.trading || r.suspended || !r.listed) continue;
    const changePct = round((r.close - r.prevClose) / r.prevClose, 6);
    if (Math.abs(changePct) < LISTING_DEVIATION) continue;
    const turnover = Math.round(((r.volume * (r.open + r.high + r.low + r.close)) / 4) * 100) / 100;
    // The stream's name is part of the seeded market: renaming it would change every list.
    const rng = new SeededRandom(hashSeed(catalogue.options.seed, 'lhb', instrument.code, day));
    const { buys, sells } = drawSeats(rng, turnover, changePct > 0);
    const net = [...buys, ...sells].reduce((sum, s) => sum + s.buy - s.sell, 0);
    list.push({
      code: instrument.code,
      name: instrument.name,
      market,
      close: r.close,
      changePct,
      turnover,
      reason: changePct > 0 ? 'rise' : 'fall',
      buys,
      sells,
      net: Math.round(net * 100) / 100,
    });
  }
  list.sort((a, b) => Math.abs(b.changePct) - Math.abs(a.changePct) || (a.code < b.code ? -1 : 1));
  return { date: listedDay === null ? '' : new Date(listedDay * DAY_MS).toISOString().slice(0, 10), list };
}

/**
 * Five buying and five selling seats of one listed stock, drawn in a fixed order from `rng`: rising stocks
 * draw more buying at the top seats, falling ones more selling.
 */
function drawSeats(
  rng: SeededRandom,
  turnover: number,
  rising: boolean,
): { buys: DragonTigerSeat[]; sells: DragonTigerSeat[] } {
  // Ten distinct seats: a partial Fisher–Yates shuffle of the seat list.
  const pool = [...SEATS];
  for (let i = 0; i < 10; i++) {
    const j = i + Math.floor(rng.uniform() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  const side = (seats: typeof pool, share: number, main: 'buy' | 'sell'): DragonTigerSeat[] => {
    const weights = seats.map(() => 0.2 + rng.uniform());
    const sum = weights.reduce((a, b) => a + b, 0);
    return seats
      .map((s, i) => {
        const amount = Math.round(((turnover * share * weights[i]!) / sum) * 100) / 100;
        const other = rng.uniform() < 0.3 ? Math.round(amount * rng.uniform() * 0.2 * 100) / 100 : 0;
        return { ...s, buy: main === 'buy' ? amount : other, sell: main === 'sell' ? amount : other };
      })
      .sort((a, b) => b[main] - a[main] || (a.seat < b.seat ? -1 : 1));
  };
  const lead = 0.12 + rng.uniform() * 0.18;
  const lag = 0.05 + rng.uniform() * 0.1;
  const buys = side(pool.slice(0, 5), rising ? lead : lag, 'buy');
  const sells = side(pool.slice(5, 10), rising ? lag : lead, 'sell');
  return { buys, sells };
}
