import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { TranslationFunctions } from '../../../../locales/i18n-types';
import type { FuturesQuote, OrderBook, StockFigures } from '../../../shared/api/types';
import { formatBigNumber, formatDateTime, formatMoney, formatRate } from '../../../shared/format';
import { canShort } from '../../../shared/trading-rules';
import { streamCarries, useLiveQuote } from '../../api/live-quotes';
import { useStationQuery } from '../../api/station-query';
import { stockRead } from './market-reads';
import { KlineChart } from '../../chart/KlineChart';
import { useRevealedInTurn } from '../../chart/reveal-in-turn';
import { moveClass, PctText } from '../../components/PriceText';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { showLoginPrompt } from '../../state/login-prompt';
import {
  useInstrument,
  useTradingRules,
  type InstrumentKind,
  type TradeInstrument,
} from '../../api/trading-data';
import { MARKET_TIME_ZONE, PRICE_REFRESH_MS, priceDigits } from '../../components/market-info';
import { WatchToggle } from './WatchToggle';
import { AlertButton } from './AlertSheet';
import './market.css';
import { AsOfNote } from '../../components/ConnectionViews';
import { useLoggedIn } from '../../state/use-logged-in';

function useCode(): string {
  const search = useSearch({ strict: false }) as { code?: string };
  return typeof search.code === 'string' ? search.code.trim() : '';
}

/**
 * /listdetail?code=: a stock's quote header, limits, its figures (market cap, P/E…), 5-level book, chart, its
 * own news, order and watch buttons.
 */
export function StockDetailScreen() {
  const { LL } = useI18nContext();
  const code = useCode();
  const stock = useStationQuery('GET /api/stock/getSingleStock.do', code ? stockRead(code).input : null, {
    refetchInterval: PRICE_REFRESH_MS,
  });
  if (!code) return <ErrorState error={new Error(LL.detail.missingCode())} />;
  if (stock.loading) return <Loading />;
  if (!stock.data) return stock.error ? <ErrorState error={stock.error} onRetry={stock.reload} /> : null;
  return (
    <>
      <AsOfNote call="GET /api/stock/getSingleStock.do" />
      <DetailView
        kind="stock"
        instrument={stock.data}
        book={stock.data.book}
        staleError={stock.error?.message}
      />
    </>
  );
}

/** /listdetail2?code=&market=index|futures: an index's or a futures contract's detail. */
export function ContractDetailScreen() {
  const { LL } = useI18nContext();
  const code = useCode();
  const search = useSearch({ strict: false }) as { market?: string };
  const kind: InstrumentKind = search.market === 'futures' ? 'futures' : 'index';
  const instrument = useInstrument(kind, code || null);
  if (!code) return <ErrorState error={new Error(LL.detail.missingCode())} />;
  if (instrument.loading) return <Loading />;
  if (!instrument.data)
    return instrument.error ? <ErrorState error={instrument.error} onRetry={instrument.reload} /> : null;
  return (
    <>
      <AsOfNote
        call={
          kind === 'futures' ? 'GET /api/futures/querySingleMarket.do' : 'GET /api/index/querySingleIndex.do'
        }
      />
      <DetailView kind={kind} instrument={instrument.data} staleError={instrument.error?.message} />
    </>
  );
}

const ORDER_ROUTE = { stock: '/buy', index: '/indexBuy', futures: '/futuresBuy' } as const;

function DetailView({
  kind,
  instrument,
  book,
  staleError,
}: {
  kind: InstrumentKind;
  instrument: TradeInstrument;
  book?: OrderBook;
  staleError?: string | undefined;
}) {
  const { LL, locale } = useI18nContext();
  const navigate = useNavigate();
  const loggedIn = useLoggedIn();
  const rules = useTradingRules();
  const digits = priceDigits(instrument.market, instrument.price, instrument.code);
  const price = (value: number) => formatMoney(value, locale, digits);
  // The header's price follows the live stream; the detail call's refresh still updates the rest.
  const streamed = useLiveQuote(streamCarries(instrument.market) ? instrument.code : undefined);
  const live = streamed && streamed.time >= instrument.time ? streamed : instrument;
  const move = moveClass(live.change);
  const shortable = rules.data ? canShort(rules.data, instrument.market) : false;

  const figures: Figure[] = [
    { label: LL.detail.open(), value: price(instrument.open) },
    { label: LL.detail.high(), value: price(instrument.high) },
    { label: LL.detail.low(), value: price(instrument.low) },
    { label: LL.detail.prevClose(), value: price(instrument.prevClose) },
  ];
  if (instrument.limitUp !== null)
    figures.push({ label: LL.detail.limitUp(), value: price(instrument.limitUp), testId: 'detail-limit-up' });
  if (instrument.limitDown !== null)
    figures.push({
      label: LL.detail.limitDown(),
      value: price(instrument.limitDown),
      testId: 'detail-limit-down',
    });
  if (kind === 'stock') {
    figures.push(
      { label: LL.detail.lotSize(), value: LL.detail.lotSizeValue({ n: instrument.lotSize }) },
      { label: LL.detail.currency(), value: instrument.currency },
      {
        label: LL.detail.settlement(),
        value: instrument.tPlus ? LL.detail.tPlusOne() : LL.detail.tPlusZero(),
        testId: 'detail-settlement',
      },
    );
  } else if (kind === 'futures') {
    const f = instrument as TradeInstrument & Partial<FuturesQuote>;
    if (f.exchange) figures.push({ label: LL.trading.exchange(), value: f.exchange });
    if (f.multiplier)
      figures.push({ label: LL.trading.multiplier(), value: contractSize(LL, f.multiplier, f.unit) });
    if (f.tick) figures.push({ label: LL.trading.tick(), value: String(f.tick) });
    if (f.sessions) figures.push({ label: LL.trading.sessions(), value: f.sessions.join(' ') });
  } else if (rules.data) {
    const multiplier =
      rules.data.indexMultiplier.byCode[instrument.code] ?? rules.data.indexMultiplier.default;
    figures.push({ label: LL.trading.multiplier(), value: LL.trading.perPoint({ n: multiplier }) });
  }
  figures.push(
    { label: LL.detail.volume(), value: formatMoney(instrument.volume, locale, 0) },
    { label: LL.detail.turnover(), value: formatMoney(instrument.turnover, locale, 0) },
  );

  const order = (direction: 'long' | 'short') => {
    if (!loggedIn) {
      showLoginPrompt();
      return;
    }
    void navigate({
      to: ORDER_ROUTE[kind],
      search: direction === 'short' ? { code: instrument.code, direction } : { code: instrument.code },
    });
  };

  return (
    <div className="detail-screen">
      <section className="quote-header">
        <div className="quote-title">
          <h2>{instrument.name}</h2>
          <span className="num muted">{instrument.code}</span>
          <span className={`status-tag status-${instrument.status}`}>
            {LL.detail.status[instrument.status]()}
          </span>
          <WatchToggle code={instrument.code} market={instrument.market} compact />
          <AlertButton
            target={{
              code: instrument.code,
              name: instrument.name,
              market: instrument.market,
              price: live.price,
              changePct: live.changePct,
            }}
          />
        </div>
        <div className={`quote-price-line ${move}`}>
          <span className="num detail-price" data-testid="detail-price" data-value={String(live.price)}>
            {price(live.price)}
          </span>
          <span className="num">
            {live.change > 0 ? '+' : ''}
            {price(live.change)}
          </span>
          <PctText fraction={live.changePct} />
        </div>
        <FigureGrid figures={figures} />
        {staleError && <p className="inline-error">{staleError}</p>}
      </section>

      {kind === 'stock' && <StockFiguresView code={instrument.code} digits={digits} />}

      {book && <BookView book={book} prevClose={instrument.prevClose} digits={digits} />}

      <KlineChart
        code={instrument.code}
        market={instrument.market}
        timeZone={MARKET_TIME_ZONE[instrument.market]}
      />

      {kind === 'stock' && <StockNewsView code={instrument.code} />}

      <div className="action-bar two">
        {shortable && (
          <button
            type="button"
            className="button primary block sell"
            data-testid="short-button"
            disabled={instrument.status === 'suspended'}
            onClick={() => order('short')}
          >
            {LL.trading.openShort()}
          </button>
        )}
        <button
          type="button"
          className="button primary block buy"
          data-testid="buy-button"
          disabled={instrument.status === 'suspended'}
          onClick={() => order('long')}
        >
          {shortable ? LL.trading.openLong() : LL.detail.buy()}
        </button>
      </div>
    </div>
  );
}

interface Figure {
  label: string;
  value: string;
  testId?: string;
}

/** A figure row's height and the gap between rows (global.css .figure-grid), for the placeholder. */
const FIGURE_ROW_PX = 37.6875;
const FIGURE_GAP_PX = 8;

/**
 * The quote's figures (open, high, low, limits, lot size…), three to a row. They come in the frame after
 * the quote's name and price, before the order book: the screen opens in short tasks on a slow phone.
 */
function FigureGrid({ figures }: { figures: Figure[] }) {
  const revealed = useRevealedInTurn();
  if (!revealed) {
    const rows = Math.ceil(figures.length / 3);
    return (
      <div
        className="figure-grid-pending"
        aria-busy="true"
        style={{ height: rows * FIGURE_ROW_PX + Math.max(0, rows - 1) * FIGURE_GAP_PX }}
      />
    );
  }
  return <FigureList figures={figures} />;
}

/** Figures, three to a row (`busy`: their values are still loading). */
function FigureList({ figures, busy = false }: { figures: Figure[]; busy?: boolean }) {
  return (
    <dl className="figure-grid" aria-busy={busy || undefined}>
      {figures.map((figure) => (
        <div key={figure.label}>
          <dt>{figure.label}</dt>
          <dd className="num" data-testid={figure.testId}>
            {figure.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The stock's figures, in the order shown; their labels are shown while the values load. */
const STOCK_FIGURES: readonly {
  label: (LL: TranslationFunctions) => string;
  value: (f: StockFigures, locale: string, digits: number, LL: TranslationFunctions) => string;
  testId: string;
}[] = [
  {
    label: (LL) => LL.detail.marketCap(),
    value: (f, locale) => `${formatBigNumber(f.marketCap, locale)} ${f.currency}`,
    testId: 'figure-market-cap',
  },
  {
    label: (LL) => LL.detail.peTtm(),
    value: (f, locale, _digits, LL) =>
      f.peTtm === null ? LL.detail.peLoss() : formatMoney(f.peTtm, locale, 2),
    testId: 'figure-pe',
  },
  {
    label: (LL) => LL.detail.turnoverRate(),
    value: (f, locale) => formatRate(f.turnoverRate, locale),
    testId: 'figure-turnover-rate',
  },
  {
    label: (LL) => LL.detail.high52w(),
    value: (f, locale, digits) => formatMoney(f.high52w, locale, digits),
    testId: 'figure-high-52w',
  },
  {
    label: (LL) => LL.detail.low52w(),
    value: (f, locale, digits) => formatMoney(f.low52w, locale, digits),
    testId: 'figure-low-52w',
  },
  {
    label: (LL) => LL.detail.sharesOutstanding(),
    value: (f, locale) => formatBigNumber(f.sharesOutstanding, locale),
    testId: 'figure-shares',
  },
  {
    label: (LL) => LL.detail.dividendYield(),
    value: (f, locale) => formatRate(f.dividendYield, locale),
    testId: 'figure-dividend-yield',
  },
];

/**
 * The figures a broker app shows under a stock's quote: market cap (its currency named), P/E (TTM), turnover
 * rate, 52-week range, shares outstanding and dividend yield, refreshed with the quote (they move with the
 * price).
 */
function StockFiguresView({ code, digits }: { code: string; digits: number }) {
  const { LL, locale } = useI18nContext();
  const query = useStationQuery(
    'GET /api/stock/getStockFigures.do',
    { code },
    { refetchInterval: PRICE_REFRESH_MS },
  );
  const f = query.data;
  return (
    <section
      className="stock-section stock-figures"
      aria-labelledby="stock-figures-title"
      data-testid="stock-figures"
    >
      <h3 id="stock-figures-title">{LL.detail.figuresTitle()}</h3>
      {/*
       * While loading, the grid stands with its labels and no values: the values come into the same boxes,
       * one line each (market.css), so nothing below moves when they arrive.
       */}
      {query.loading ? (
        <FigureList
          busy
          figures={STOCK_FIGURES.map((figure) => ({ label: figure.label(LL), value: '--' }))}
        />
      ) : !f ? (
        query.error && <ErrorState error={query.error} onRetry={query.reload} />
      ) : (
        <FigureList
          figures={STOCK_FIGURES.map((figure) => ({
            label: figure.label(LL),
            value: figure.value(f, locale, digits, LL),
            testId: figure.testId,
          }))}
        />
      )}
    </section>
  );
}

/** How many of a stock's news items the detail screen lists (the latest). */
const STOCK_NEWS_SHOWN = 5;

/** The stock's own latest news; each item opens in the news screen. */
function StockNewsView({ code }: { code: string }) {
  const { LL } = useI18nContext();
  const query = useStationQuery('GET /api/stock/getStockNews.do', {
    code,
    pageNum: 1,
    pageSize: STOCK_NEWS_SHOWN,
  });
  const items = query.data?.list;
  return (
    <section className="stock-section" aria-labelledby="stock-news-title" data-testid="stock-news">
      <h3 id="stock-news-title">{LL.detail.newsTitle()}</h3>
      {query.loading ? (
        <Loading />
      ) : !items ? (
        query.error && <ErrorState error={query.error} onRetry={query.reload} />
      ) : items.length === 0 ? (
        <Empty text={LL.detail.newsEmpty()} />
      ) : (
        <ul className="stock-news-list">
          {items.map((item) => (
            <li key={item.id}>
              <Link
                to="/newPage"
                search={{ stock: item.id }}
                className="stock-news-row"
                data-testid="stock-news-row"
                lang={item.lang}
              >
                <strong>{item.title}</strong>
                <span className="muted num">{formatDateTime(item.publishedAt).slice(0, 16)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The simulated 5-level order book: asks above (5 to 1), bids below (1 to 5). It comes in the frame after
 * the quote (and before the chart), so opening the screen is never one long task on a slow phone.
 */
function BookView({ book, prevClose, digits }: { book: OrderBook; prevClose: number; digits: number }) {
  const { LL, locale } = useI18nContext();
  const revealed = useRevealedInTurn();
  if (book.asks.length === 0 && book.bids.length === 0) return null;
  if (!revealed) return <div className="order-book-pending" aria-busy="true" />;
  const level = (side: 'ask' | 'bid', [p, shares]: [number, number], i: number) => (
    <tr key={`${side}${i}`} className={side}>
      <th scope="row">{side === 'ask' ? LL.trading.ask({ n: i + 1 }) : LL.trading.bid({ n: i + 1 })}</th>
      <td className={`num ${moveClass(p - prevClose)}`}>{formatMoney(p, locale, digits)}</td>
      <td className="num">{formatMoney(shares, locale, 0)}</td>
    </tr>
  );
  return (
    <table className="order-book" data-testid="order-book" aria-label={LL.trading.book()}>
      <tbody>
        {book.asks.map((l, i) => level('ask', l, i)).reverse()}
        {book.bids.map((l, i) => level('bid', l, i))}
      </tbody>
    </table>
  );
}

/**
 * A future's contract size in the reader's words: the catalogue names its unit as a code ('index point',
 * 'yuan/tonne'), never shown as it is.
 */
function contractSize(LL: TranslationFunctions, n: number, unit: string | undefined): string {
  switch (unit) {
    case 'index point':
      return LL.trading.perPoint({ n });
    case 'yuan/barrel':
      return LL.trading.contractSizeBarrel({ n });
    case 'yuan/gram':
      return LL.trading.contractSizeGram({ n });
    case 'yuan/kg':
      return LL.trading.contractSizeKg({ n });
    case 'yuan/tonne':
      return LL.trading.contractSizeTonne({ n });
    default:
      return String(n);
  }
}
