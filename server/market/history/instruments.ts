/**
 * Which instrument a history code is, and so which rules its bars follow: the exchange's hours and time
 * zone (the real calendars whatever the station's clock mode: history happened on them), its tick and its
 * daily price limit. A code of the catalogue is that instrument; any other is added to history_instruments
 * with the operator's name for it and its market (given, or told by the code's shape).
 */
import { CONTROL_CHARACTERS } from '../../../src/shared/validation';
import type { Currency, Market, StockMarket } from '../../../src/shared/api/types';
import type { Board, Instrument, TickRule } from '../catalogue';
import type { MarketService } from '../market-service';
import { dayOfDate, futuresHours, REAL_HOURS, type MarketHours } from '../sessions';
import { HISTORY_CODE, linesOf, type HistoryProblem } from './csv';

/** A name given for a code outside the catalogue, and where it was given (for the operator's messages). */
export interface GivenName {
  name: string;
  market: StockMarket | null;
}

/** A code outside the catalogue as history_instruments keeps it. */
export interface AddedInstrument {
  code: string;
  market: StockMarket;
  name: string;
  currency: Currency;
}

/** What the checks of a code's bars need to know about it. */
export interface HistorySubject {
  code: string;
  market: Market;
  hours: MarketHours;
  tick: TickRule;
  /** The daily price limit as a fraction of the previous close, or null without one. */
  limit: number | null;
  /** Its listing day inside the catalogue's history (no limit for its first days), or null. */
  listedDay: number | null;
  /** The history_instruments row to write for a code outside the catalogue; null for a catalogue code. */
  added: AddedInstrument | null;
}

const STOCK_MARKETS: readonly StockMarket[] = ['a', 'star', 'hk', 'us'];
const CURRENCY: Record<StockMarket, Currency> = { a: 'CNY', star: 'CNY', hk: 'HKD', us: 'USD' };
const NAME_MAX = 64;

/** The market a code's shape tells: 688xxx the STAR Market, other 6/0/3xxxxx the A-share main boards,
 * five digits Hong Kong, letters the US; null when the shape tells none. */
export function inferMarket(code: string): StockMarket | null {
  if (/^688\d{3}$/.test(code)) return 'star';
  if (/^[603]\d{5}$/.test(code)) return 'a';
  if (/^\d{5}$/.test(code)) return 'hk';
  if (/^[A-Z]{1,10}$/.test(code)) return 'us';
  return null;
}

/** A problem with a name, or null. */
function nameProblem(name: string): string | null {
  if (name === '') return 'the name is empty';
  if (name.length > NAME_MAX) return `the name is longer than ${NAME_MAX} characters`;
  if (CONTROL_CHARACTERS.test(name)) return 'the name holds control characters';
  return null;
}

/** `--name CODE=NAME` read, or a message. */
export function parseNameOption(raw: string): { code: string; name: string } | string {
  const at = raw.indexOf('=');
  const code = (at === -1 ? '' : raw.slice(0, at)).trim().toUpperCase();
  const name = raw.slice(at + 1).trim();
  if (at === -1 || !HISTORY_CODE.test(code)) return `--name takes CODE=NAME, not "${raw}"`;
  const problem = nameProblem(name);
  return problem ? `--name ${code}: ${problem}` : { code, name };
}

/** A `--names` side file: `code,name[,market]` rows (a header line `code,name…` may come first). */
export function readNamesCsv(
  file: string,
  text: string,
): { names: Map<string, GivenName>; problems: HistoryProblem[] } {
  const names = new Map<string, GivenName>();
  const problems: HistoryProblem[] = [];
  linesOf(text).forEach((raw, i) => {
    const fields = raw.split(',').map((f) => f.trim().replace(/^"(.*)"$/, '$1'));
    if (raw.trim() === '' || (i === 0 && fields[0]?.toLowerCase() === 'code')) return;
    const problem = (message: string) => problems.push({ file, line: i + 1, message });
    const [rawCode = '', name = '', rawMarket = ''] = fields;
    const code = rawCode.toUpperCase();
    const market = rawMarket.toLowerCase();
    if (fields.length > 3) return problem('a row is code,name[,market]');
    if (!HISTORY_CODE.test(code)) return problem(`code is not 1-10 letters or digits: "${rawCode}"`);
    const bad = nameProblem(name);
    if (bad) return problem(`${code}: ${bad}`);
    if (market !== '' && !STOCK_MARKETS.includes(market as StockMarket))
      return problem(`${code}: the market is one of ${STOCK_MARKETS.join(', ')}, not "${rawMarket}"`);
    if (names.has(code)) return problem(`${code} is named twice`);
    names.set(code, { name, market: market === '' ? null : (market as StockMarket) });
  });
  return { names, problems };
}

/** A catalogue entry as a subject: a stock, an index (no limit) or a futures product (its own hours). */
function catalogueSubject(market: MarketService, code: string): HistorySubject | null {
  const tradable = market.findTradable(code);
  if (!tradable) return null;
  const { instrument } = tradable;
  const stockMarket = instrument.market;
  const futures =
    tradable.market === 'futures' ? market.futures().find((def) => def.code === instrument.code) : undefined;
  return {
    code: instrument.code,
    market: tradable.market,
    hours: futures ? futuresHours(futures.sessions) : REAL_HOURS[stockMarket],
    tick: instrument.tick,
    limit: tradable.market === 'index' ? null : market.limitOf(instrument),
    listedDay: instrument.listedOn === undefined ? null : dayOfDate(instrument.listedOn),
    added: null,
  };
}

/** The board of a code outside the catalogue, for its price limit (catalogue.ts boards). */
function boardOf(code: string, market: StockMarket): Board {
  if (market === 'a') return 'main';
  if (market === 'star') return /^68[89]/.test(code) ? 'star' : 'chinext';
  return market;
}

/**
 * A code outside the catalogue as an instrument, so its limit comes from the one rule every instrument's
 * does (InstrumentCatalogue.limitOf: the market's limit, ST names' on the main boards). The import needs
 * only that; a replay takes the fields the simulation reads (reference price, volatility, volume, lot) from
 * the instrument's bars (replay-history.ts).
 */
export function addedInstrument(added: AddedInstrument): Instrument {
  return {
    code: added.code,
    market: added.market,
    board: boardOf(added.code, added.market),
    // The exchanges prefix the names of stocks under special treatment with ST or *ST.
    st: /^\*?ST/i.test(added.name),
    name: added.name,
    nameEn: added.name,
    names: { 'zh-TW': added.name },
    pinyin: '',
    currency: added.currency,
    lotSize: 1,
    tick: added.market === 'hk' ? 'hkex' : 0.01,
    referencePrice: 1,
    volatility: 1,
    avgDailyVolume: 1,
  };
}

/**
 * The subject of `code`: the catalogue's instrument, or one outside it named by `given` (this command's
 * names) or `stored` (an earlier import's). A message when it cannot be told.
 */
export function resolveSubject(
  market: MarketService,
  code: string,
  given: ReadonlyMap<string, GivenName>,
  stored: ReadonlyMap<string, AddedInstrument>,
): HistorySubject | string {
  const known = catalogueSubject(market, code);
  if (known) return known;
  const name = given.get(code)?.name ?? stored.get(code)?.name;
  if (name === undefined)
    return `${code} is not in the catalogue: give its name with --name ${code}=NAME or in a --names file`;
  const stockMarket = given.get(code)?.market ?? stored.get(code)?.market ?? inferMarket(code);
  if (stockMarket === null)
    return `the market of ${code} cannot be told from its code: give it in a --names file (code,name,market)`;
  const added: AddedInstrument = { code, market: stockMarket, name, currency: CURRENCY[stockMarket] };
  const instrument = addedInstrument(added);
  return {
    code,
    market: stockMarket,
    hours: REAL_HOURS[stockMarket],
    tick: instrument.tick,
    limit: market.limitOf(instrument),
    listedDay: null,
    added,
  };
}
