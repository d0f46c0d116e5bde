/**
 * A stock's own news, written by the station from its simulated market in each of the five content
 * languages (spec §1): a report on each of its last complete trading days (from the day's bar, so it agrees
 * with the K-line), its trailing results on a quarterly reporting day (from the seeded earnings of
 * stock-figures.ts) and each ex-dividend date of the last 12 months (the price history's own corporate
 * actions). Nothing is stored: the same seed and day give the same items. The station's editorial news stays
 * in the content area (getNewsList.do).
 */
import type { StockNewsDetail, StockNewsKind } from '../../src/shared/api/types';
import type { ContentLang } from '../../src/shared/content';
import { nameIn, type Instrument } from './catalogue';
import { hashSeed } from './prng';
import type { CorporateAction, DayRecord } from './series-spec';
import {
  DAY_MS,
  dayCloseTime,
  dayOpenTime,
  isTradingDay,
  previousTradingDay,
  type MarketHours,
} from './sessions';

/** Days of close reports in a stock's news. */
export const CLOSE_REPORT_DAYS = 5;
/** Results come out once a quarter, on a day of the cycle seeded per stock. */
const REPORTING_CYCLE_DAYS = 91;
/** A move smaller than this (0.3%) is reported as little changed; 3% or more is a surge or a slump. */
const FLAT_MOVE = 0.003;
const BIG_MOVE = 0.03;

/** What the writer needs to know about the stock on a day. */
export interface StockDay {
  instrument: Pick<Instrument, 'code' | 'currency' | 'name' | 'nameEn' | 'names'>;
  record: DayRecord;
  /** Trailing earnings per share and shares outstanding on that day (stock-figures.ts). */
  epsTtm: number;
  sharesOutstanding: number;
}

type Move = 'surge' | 'up' | 'flat' | 'down' | 'slump';

interface Writer {
  source: string;
  price(value: string, currency: string): string;
  close(name: string, move: Move, pct: string, close: string): string;
  closeBody(date: string, open: string, high: string, low: string, close: string, volume: string): string;
  results(name: string, eps: string, loss: boolean): string;
  resultsBody(date: string, eps: string, loss: boolean, pe: string | null, shares: string): string;
  dividend(name: string, cash: string, bonusPer10: number): string;
  dividendBody(date: string, cash: string, bonusPer10: number, exPrice: string): string;
  simulated: string;
}

const CURRENCY_WORD_ZH: Record<string, string> = { CNY: '元', HKD: '港元', USD: '美元' };

const zhMoves: Record<'zh-CN' | 'zh-TW', Record<Move, string>> = {
  'zh-CN': { surge: '大涨', up: '收涨', flat: '窄幅震荡，收', down: '收跌', slump: '大跌' },
  'zh-TW': { surge: '大漲', up: '收漲', flat: '窄幅震盪，收', down: '收跌', slump: '大跌' },
};

const WRITERS: Record<ContentLang, Writer> = {
  'zh-CN': {
    source: 'PaperDesk 模拟行情',
    price: (v, c) => `${v}${CURRENCY_WORD_ZH[c] ?? c}`,
    close: (name, move, pct, close) => `${name}${zhMoves['zh-CN'][move]}${pct}%，报${close}`,
    closeBody: (date, open, high, low, close, volume) =>
      `${date}，开盘${open}，盘中最高${high}、最低${low}，收于${close}，成交${volume}股。`,
    results: (name, eps, loss) => `${name}发布业绩：近十二个月每股${loss ? '亏损' : '收益'}${eps}`,
    resultsBody: (date, eps, loss, pe, shares) =>
      `${date}，公司公布近十二个月业绩：每股${loss ? '亏损' : '收益'}${eps}，总股本${shares}股。` +
      (pe ? `按当日收盘价计，市盈率（TTM）为${pe}倍。` : '公司处于亏损，市盈率不适用。'),
    dividend: (name, cash, bonus) =>
      `${name}今日除权除息：每股派现${cash}${bonus ? `，每10股送${bonus}股` : ''}`,
    dividendBody: (date, cash, bonus, exPrice) =>
      `${date}为除权除息日：每股派发现金红利${cash}${bonus ? `，每10股送红股${bonus}股` : ''}。除权除息参考价${exPrice}。`,
    simulated: '本文由模拟行情自动生成，不构成投资建议。',
  },
  'zh-TW': {
    source: 'PaperDesk 模擬行情',
    price: (v, c) => `${v}${CURRENCY_WORD_ZH[c] ?? c}`,
    close: (name, move, pct, close) => `${name}${zhMoves['zh-TW'][move]}${pct}%，報${close}`,
    closeBody: (date, open, high, low, close, volume) =>
      `${date}，開盤${open}，盤中最高${high}、最低${low}，收於${close}，成交${volume}股。`,
    results: (name, eps, loss) => `${name}發布業績：近十二個月每股${loss ? '虧損' : '盈餘'}${eps}`,
    resultsBody: (date, eps, loss, pe, shares) =>
      `${date}，公司公布近十二個月業績：每股${loss ? '虧損' : '盈餘'}${eps}，總股本${shares}股。` +
      (pe ? `按當日收盤價計，本益比（TTM）為${pe}倍。` : '公司處於虧損，本益比不適用。'),
    dividend: (name, cash, bonus) =>
      `${name}今日除權除息：每股派現${cash}${bonus ? `，每10股送${bonus}股` : ''}`,
    dividendBody: (date, cash, bonus, exPrice) =>
      `${date}為除權除息日：每股派發現金股利${cash}${bonus ? `，每10股送紅股${bonus}股` : ''}。除權除息參考價${exPrice}。`,
    simulated: '本文由模擬行情自動生成，不構成投資建議。',
  },
  en: {
    source: 'PaperDesk simulated market',
    price: (v, c) => `${v} ${c}`,
    close: (name, move, pct, close) =>
      `${name} ${{ surge: 'surges', up: 'closes up', flat: 'is little changed,', down: 'closes down', slump: 'slumps' }[move]} ${pct}% at ${close}`,
    closeBody: (date, open, high, low, close, volume) =>
      `On ${date} the stock opened at ${open}, traded between ${low} and ${high} and closed at ${close}, on a volume of ${volume} shares.`,
    results: (name, eps, loss) =>
      loss
        ? `${name} reports a loss: ${eps} per share over the last twelve months`
        : `${name} reports results: earnings of ${eps} per share over the last twelve months`,
    resultsBody: (date, eps, loss, pe, shares) =>
      `On ${date} the company reported trailing-twelve-month ${loss ? 'losses' : 'earnings'} of ${eps} per share, with ${shares} shares outstanding. ` +
      (pe ? `At the day's close the P/E (TTM) is ${pe}.` : 'As the company is loss-making, it has no P/E.'),
    dividend: (name, cash, bonus) =>
      `${name} goes ex-dividend: ${cash} cash per share${bonus ? ` and ${bonus} bonus shares for every 10` : ''}`,
    dividendBody: (date, cash, bonus, exPrice) =>
      `${date} is the ex-date: a cash dividend of ${cash} per share${bonus ? ` and ${bonus} bonus shares for every 10 held` : ''}. The ex-rights reference price is ${exPrice}.`,
    simulated: 'Written automatically from the simulated market; not investment advice.',
  },
  th: {
    source: 'ตลาดจำลอง PaperDesk',
    price: (v, c) => `${v} ${c}`,
    close: (name, move, pct, close) =>
      `${name} ${{ surge: 'พุ่งขึ้น', up: 'ปิดบวก', flat: 'ทรงตัว', down: 'ปิดลบ', slump: 'ร่วงลง' }[move]} ${pct}% ที่ ${close}`,
    closeBody: (date, open, high, low, close, volume) =>
      `วันที่ ${date} หุ้นเปิดที่ ${open} ซื้อขายระหว่าง ${low} ถึง ${high} และปิดที่ ${close} ปริมาณการซื้อขาย ${volume} หุ้น`,
    results: (name, eps, loss) =>
      loss
        ? `${name} รายงานผลขาดทุน: ขาดทุนต่อหุ้นย้อนหลัง 12 เดือน ${eps}`
        : `${name} รายงานผลประกอบการ: กำไรต่อหุ้นย้อนหลัง 12 เดือน ${eps}`,
    resultsBody: (date, eps, loss, pe, shares) =>
      `วันที่ ${date} บริษัทรายงาน${loss ? 'ผลขาดทุน' : 'กำไร'}ต่อหุ้นย้อนหลัง 12 เดือน ${eps} จำนวนหุ้นทั้งหมด ${shares} หุ้น ` +
      (pe ? `ที่ราคาปิดของวันนั้น P/E (TTM) เท่ากับ ${pe} เท่า` : 'บริษัทขาดทุนจึงไม่มีค่า P/E'),
    dividend: (name, cash, bonus) =>
      `${name} ขึ้นเครื่องหมาย XD: เงินปันผล ${cash} ต่อหุ้น${bonus ? ` และหุ้นปันผล ${bonus} หุ้นต่อ 10 หุ้น` : ''}`,
    dividendBody: (date, cash, bonus, exPrice) =>
      `วันที่ ${date} เป็นวันขึ้นเครื่องหมาย: เงินปันผล ${cash} ต่อหุ้น${bonus ? ` และหุ้นปันผล ${bonus} หุ้นต่อทุก 10 หุ้น` : ''} ราคาอ้างอิงหลังขึ้นเครื่องหมาย ${exPrice}`,
    simulated: 'เขียนโดยอัตโนมัติจากตลาดจำลอง ไม่ใช่คำแนะนำการลงทุน',
  },
  vi: {
    source: 'Thị trường mô phỏng PaperDesk',
    price: (v, c) => `${v} ${c}`,
    close: (name, move, pct, close) =>
      `${name} ${{ surge: 'tăng mạnh', up: 'đóng cửa tăng', flat: 'đi ngang', down: 'đóng cửa giảm', slump: 'giảm mạnh' }[move]} ${pct}%, ở mức ${close}`,
    closeBody: (date, open, high, low, close, volume) =>
      `Ngày ${date}, cổ phiếu mở cửa ở ${open}, giao dịch trong khoảng ${low} – ${high} và đóng cửa ở ${close}, khối lượng ${volume} cổ phiếu.`,
    results: (name, eps, loss) =>
      loss
        ? `${name} báo lỗ: lỗ ${eps} trên mỗi cổ phiếu trong 12 tháng gần nhất`
        : `${name} công bố kết quả: lãi ${eps} trên mỗi cổ phiếu trong 12 tháng gần nhất`,
    resultsBody: (date, eps, loss, pe, shares) =>
      `Ngày ${date}, công ty công bố ${loss ? 'khoản lỗ' : 'lợi nhuận'} 12 tháng gần nhất là ${eps} trên mỗi cổ phiếu, với ${shares} cổ phiếu đang lưu hành. ` +
      (pe ? `Theo giá đóng cửa hôm đó, P/E (TTM) là ${pe}.` : 'Công ty đang lỗ nên không có P/E.'),
    dividend: (name, cash, bonus) =>
      `${name} giao dịch không hưởng quyền: cổ tức ${cash} mỗi cổ phiếu${bonus ? ` và thưởng ${bonus} cổ phiếu cho mỗi 10 cổ phiếu` : ''}`,
    dividendBody: (date, cash, bonus, exPrice) =>
      `Ngày ${date} là ngày giao dịch không hưởng quyền: cổ tức tiền mặt ${cash} mỗi cổ phiếu${bonus ? ` và thưởng ${bonus} cổ phiếu cho mỗi 10 cổ phiếu nắm giữ` : ''}. Giá tham chiếu sau điều chỉnh là ${exPrice}.`,
    simulated: 'Bài viết được tạo tự động từ thị trường mô phỏng; không phải lời khuyên đầu tư.',
  },
};

const dateText = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const compactDate = (day: number) => dateText(day).replaceAll('-', '');

/** The id of an item: the code, the date and the kind. */
export function stockNewsId(code: string, day: number, kind: StockNewsKind): string {
  return `${code}-${compactDate(day)}-${kind}`;
}

/** An id's parts, or null when it is not one (the day as a day number). */
export function parseStockNewsId(id: string): { code: string; day: number; kind: StockNewsKind } | null {
  const m = /^([A-Z0-9]{1,10})-(\d{4})(\d{2})(\d{2})-(close|results|dividend)$/.exec(id);
  if (!m) return null;
  const time = Date.UTC(Number(m[2]), Number(m[3]) - 1, Number(m[4]));
  if (!Number.isFinite(time) || dateText(time / DAY_MS) !== `${m[2]}-${m[3]}-${m[4]}`) return null;
  return { code: m[1]!, day: time / DAY_MS, kind: m[5] as StockNewsKind };
}

/**
 * The last reporting day at or before `day` moved back to a trading day (results come out after a close).
 */
export function lastReportingDay(seed: string, code: string, day: number, hours: MarketHours): number {
  const offset = hashSeed(seed, code, 'reporting') % REPORTING_CYCLE_DAYS;
  const back = (day + offset) % REPORTING_CYCLE_DAYS;
  const cycleDay = day - back;
  return isTradingDay(cycleDay, hours) ? cycleDay : previousTradingDay(cycleDay, hours);
}

function moveOf(change: number): Move {
  if (Math.abs(change) < FLAT_MOVE) return 'flat';
  if (change >= BIG_MOVE) return 'surge';
  if (change <= -BIG_MOVE) return 'slump';
  return change > 0 ? 'up' : 'down';
}

/** Digits for a price: the instrument's two, or three below one unit (penny stocks in Hong Kong). */
const priceText = (value: number) => value.toFixed(value < 1 ? 3 : 2);

/** One item of a stock's news in `lang`; a dividend item is written from the day's corporate action. */
export function writeStockNews(
  kind: StockNewsKind,
  s: StockDay,
  lang: ContentLang,
  hours: MarketHours,
): StockNewsDetail {
  const w = WRITERS[lang];
  const { instrument, record: r } = s;
  const name = nameIn(instrument, lang);
  const money = (v: number) => w.price(priceText(v), instrument.currency);
  // Share counts with the language's grouping (71,181,151; 71.181.151 in Vietnamese).
  const count = (n: number) => new Intl.NumberFormat(lang).format(n);
  const date = dateText(r.day);
  let title: string;
  let body: string;
  let publishedAt: number;
  if (kind === 'close') {
    const change = (r.close - r.prevClose) / r.prevClose;
    const move = moveOf(change);
    const pct = `${move === 'flat' && change !== 0 ? (change > 0 ? '+' : '-') : ''}${Math.abs(change * 100).toFixed(2)}`;
    title = w.close(name, move, pct, money(r.close));
    body = w.closeBody(date, money(r.open), money(r.high), money(r.low), money(r.close), count(r.volume));
    publishedAt = dayCloseTime(r.day, hours);
  } else if (kind === 'results') {
    const loss = s.epsTtm < 0;
    const eps = w.price(
      Math.abs(s.epsTtm)
        .toFixed(4)
        .replace(/0{1,2}$/, ''),
      instrument.currency,
    );
    const pe = loss ? null : (r.close / s.epsTtm).toFixed(2);
    title = w.results(name, eps, loss);
    body = w.resultsBody(date, eps, loss, pe, count(s.sharesOutstanding));
    publishedAt = dayCloseTime(r.day, hours);
  } else {
    const action = r.action as CorporateAction;
    const bonusPer10 = Math.round(action.bonus * 10);
    const cash = w.price(action.cash.toFixed(3), instrument.currency);
    title = w.dividend(name, cash, bonusPer10);
    body = w.dividendBody(date, cash, bonusPer10, money(r.prevClose));
    publishedAt = dayOpenTime(r.day, hours);
  }
  return {
    id: stockNewsId(instrument.code, r.day, kind),
    code: instrument.code,
    kind,
    title,
    summary: body,
    source: w.source,
    publishedAt,
    lang,
    content: `${body}\n\n*${w.simulated}*`,
  };
}
