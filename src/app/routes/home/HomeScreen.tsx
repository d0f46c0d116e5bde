import { useEffect, useState } from 'react';
import { Link, useRouter } from '@tanstack/react-router';
import { useSelector } from '@legendapp/state/react';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Banner, NoticeItem, Quote } from '../../../shared/api/types';
import { formatMoney } from '../../../shared/format';
import { useLiveQuote } from '../../api/live-quotes';
import { useStationQuery } from '../../api/station-query';
import { BANNERS_READ, HOME_INDEXES_READ, HOT_STOCKS_READ, newsRead, noticesRead } from './home-reads';
import { moveClass, PctText } from '../../components/PriceText';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { AsOfNote } from '../../components/ConnectionViews';
import type { CallKey } from '../../../shared/api/calls';
import { displaySettings$ } from '../../state/display-settings';
import { session$ } from '../../state/session';
import { safeHref, safeImageSrc } from '../../components/safe-href';
import { PRICE_REFRESH_MS, priceDigits } from '../../components/market-info';
import { HomeEntries } from './HomeEntries';
import './home.css';
import { useLoggedIn } from '../../state/use-logged-in';

/** The index cards on the home screen: the first three A-share indexes of the catalogue. */
const INDEX_CARDS = 3;
const TICKER_STEP_MS = 4000;
/**
 * The live price stream opens once the first screen has loaded and settled, so it does not compete
 * with the first visit's own requests (the list call already gave each card its price).
 */
const LIVE_AFTER_MS = 1500;
/** The station calls /home is built from: read from the device's store offline, the page says how old they are. */
const HOME_CALLS: readonly CallKey[] = [
  'GET /api/site/getBannerByPlat.do',
  'GET /api/notice/getNoticeList.do',
  'GET /api/index/queryListIndex.do',
  'GET /api/stock/getTop.do',
  'GET /api/news/getNewsList.do',
];

/**
 * /home: greeting, banners, a notice ticker, the main indexes with live prices, entries to every area
 * the display settings enable, hot stocks and the latest news.
 */
export function HomeScreen() {
  const indexDisplay = useSelector(() => displaySettings$.indexDisplay.get());
  const stockDisplay = useSelector(() => displaySettings$.stockDisplay.get());
  return (
    <div className="home">
      <AsOfNote call={HOME_CALLS} />
      <HomeHero />
      <Banners />
      <NoticeTicker />
      {indexDisplay && <IndexCards />}
      <HomeEntries />
      {stockDisplay && <HotStocks />}
      <LatestNews />
    </div>
  );
}

function HomeHero() {
  const { LL } = useI18nContext();
  const user = useSelector(() => session$.user.get());
  const loggedIn = useLoggedIn();
  return (
    <section className="home-hero">
      <p className="brand">{LL.app.name()}</p>
      <h1 data-testid="greeting">
        {loggedIn && user ? LL.home.greetingUser({ phone: user.phone }) : LL.home.greeting()}
      </h1>
      <p className="muted">{LL.home.intro()}</p>
      {!loggedIn && (
        <div className="home-auth">
          <p>{LL.home.loggedOutHint()}</p>
          <div className="button-row">
            <Link to="/login" className="button primary" data-testid="home-login">
              {LL.common.login()}
            </Link>
            <Link to="/register" className="button secondary on-accent" data-testid="home-register">
              {LL.common.register()}
            </Link>
          </div>
        </div>
      )}
    </section>
  );
}

function Banners() {
  const { LL } = useI18nContext();
  const banners = useStationQuery(BANNERS_READ.key, BANNERS_READ.input);
  // Until the answer comes, an empty banner holds the place, so nothing below jumps when it arrives.
  if (banners.loading) return <div className="banner-placeholder" />;
  const list = banners.data ?? [];
  if (list.length === 0) return null;
  return (
    <section className="banners" aria-label={LL.content.banners()} data-testid="banners">
      {list.map((banner, index) => (
        <BannerCard key={banner.id} banner={banner} first={index === 0} />
      ))}
    </section>
  );
}

/** `first`: the banner on screen at once, whose picture loads straight away (the others when scrolled to). */
function BannerCard({ banner, first }: { banner: Banner; first: boolean }) {
  const router = useRouter();
  const size = pictureSize(banner);
  // The card takes the picture's shape before it loads (no layout shift); without a size, the CSS default.
  const style = size ? { aspectRatio: `${size.width} / ${size.height}` } : undefined;
  const inner = (
    <>
      <BannerPicture banner={banner} first={first} size={size} />
      <span className="banner-title">{banner.title}</span>
    </>
  );
  const href = safeHref(banner.linkUrl);
  if (!href)
    return (
      <div className="banner" style={style}>
        {inner}
      </div>
    );
  return href.startsWith('/') ? (
    <a
      href={href}
      className="banner"
      style={style}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
        event.preventDefault();
        router.history.push(href);
      }}
    >
      {inner}
    </a>
  ) : (
    <a href={href} className="banner" style={style} target="_blank" rel="noopener noreferrer">
      {inner}
    </a>
  );
}

/** The banner's intrinsic size when the station gives a whole one (both sides, positive). */
function pictureSize(banner: Banner): { width: number; height: number } | null {
  const { imageWidth: width, imageHeight: height } = banner;
  if (width === undefined || height === undefined) return null;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) return null;
  return { width, height };
}

/**
 * The banner's picture: AVIF, then WebP, then the PNG, as the browser supports them. When a chosen source
 * fails (offline, only the PNG is in the service worker's precache) the PNG alone is tried, then nothing.
 */
function BannerPicture({
  banner,
  first,
  size,
}: {
  banner: Banner;
  first: boolean;
  size: { width: number; height: number } | null;
}) {
  const [stage, setStage] = useState<'sources' | 'fallback' | 'none'>('sources');
  const fallback = safeImageSrc(banner.imageUrl);
  const avif = safeImageSrc(banner.imageAvifUrl);
  const webp = safeImageSrc(banner.imageWebpUrl);
  if (!fallback || stage === 'none') return null;
  const withSources = stage === 'sources' && (avif !== null || webp !== null);
  const img = (
    <img
      src={fallback}
      alt=""
      width={size?.width}
      height={size?.height}
      loading={first ? undefined : 'lazy'}
      fetchPriority={first ? 'high' : undefined}
      decoding="async"
      onError={() => setStage(withSources ? 'fallback' : 'none')}
    />
  );
  if (!withSources) return img;
  return (
    <picture>
      {avif && <source type="image/avif" srcSet={avif} />}
      {webp && <source type="image/webp" srcSet={webp} />}
      {img}
    </picture>
  );
}

function NoticeTicker() {
  const { LL, locale } = useI18nContext();
  const noticesFirst = noticesRead(locale);
  const notices = useStationQuery(noticesFirst.key, noticesFirst.input);
  const list = notices.data?.list ?? [];
  const [step, setStep] = useState(0);
  useEffect(() => {
    if (list.length < 2) return;
    const timer = setInterval(() => setStep((s) => s + 1), TICKER_STEP_MS);
    return () => clearInterval(timer);
  }, [list.length]);
  // Until the answer comes, an empty strip holds the ticker's place.
  if (notices.loading) return <div className="notice-ticker" />;
  if (list.length === 0) return null;
  const notice: NoticeItem = list[step % list.length]!;
  return (
    <section className="notice-ticker" aria-label={LL.content.noticeTicker()} data-testid="notice-ticker">
      <span className="ticker-label" aria-hidden="true">
        {LL.content.notices()}
      </span>
      <Link
        to="/newGg"
        search={{ id: notice.id }}
        className="ticker-item"
        key={notice.id}
        lang={notice.lang}
        aria-live="off"
      >
        {notice.title}
      </Link>
      <Link to="/newGg" className="ticker-more" aria-label={LL.content.allNotices()}>
        ›
      </Link>
    </section>
  );
}

function IndexCards() {
  const { LL } = useI18nContext();
  const indexes = useStationQuery(HOME_INDEXES_READ.key, HOME_INDEXES_READ.input, {
    refetchInterval: PRICE_REFRESH_MS * 6,
  });
  const [live, setLive] = useState(false);
  const loaded = indexes.data !== undefined;
  useEffect(() => {
    if (!loaded) return;
    const timer = setTimeout(() => setLive(true), LIVE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [loaded]);

  return (
    <section aria-labelledby="home-indexes">
      <h2 id="home-indexes" className="section-title">
        {LL.content.indexes()}
      </h2>
      {indexes.loading ? (
        <IndexCardsPlaceholder />
      ) : !indexes.data ? (
        indexes.error && <ErrorState error={indexes.error} onRetry={indexes.reload} />
      ) : (
        <div className="index-cards" data-testid="index-cards">
          {indexes.data.slice(0, INDEX_CARDS).map((quote) => (
            <IndexCard key={quote.code} quote={quote} live={live} />
          ))}
        </div>
      )}
    </section>
  );
}

/** The three cards' places while the indexes load: the same size, so the entries below do not move. */
function IndexCardsPlaceholder() {
  return (
    <div className="index-cards" aria-busy="true">
      {Array.from({ length: INDEX_CARDS }, (_, i) => (
        <div className="index-card placeholder" key={i} />
      ))}
    </div>
  );
}

/** One index with its price; once `live`, each streamed tick updates this card only. */
function IndexCard({ quote, live }: { quote: Quote; live: boolean }) {
  const { locale } = useI18nContext();
  const streamed = useLiveQuote(live ? quote.code : undefined);
  const shown = streamed ?? quote;
  return (
    <div
      className={`index-card ${moveClass(shown.change)}`}
      data-testid={`index-card-${quote.code}`}
      data-live={streamed ? 'true' : 'false'}
    >
      <span className="index-name">{quote.name}</span>
      <strong className="num index-price" data-value={String(shown.price)}>
        {formatMoney(shown.price, locale, priceDigits(shown.market, shown.price, shown.code))}
      </strong>
      <span className="num index-change">
        {formatMoney(shown.change, locale, priceDigits(shown.market, shown.price, shown.code))}{' '}
        <PctText fraction={shown.changePct} />
      </span>
    </div>
  );
}

function HotStocks() {
  const { LL, locale } = useI18nContext();
  const top = useStationQuery(HOT_STOCKS_READ.key, HOT_STOCKS_READ.input, {
    refetchInterval: PRICE_REFRESH_MS,
  });
  return (
    <section aria-labelledby="home-hot">
      <h2 id="home-hot" className="section-title">
        {LL.content.hotStocks()}
      </h2>
      {top.loading ? (
        <Loading />
      ) : !top.data ? (
        top.error && <ErrorState error={top.error} onRetry={top.reload} />
      ) : top.data.length === 0 ? (
        <Empty />
      ) : (
        <ul className="hot-list" data-testid="hot-stocks">
          {top.data.map((quote) => (
            <li key={quote.code}>
              <Link to="/listdetail" search={{ code: quote.code }} className="hot-row">
                <span className="quote-name">
                  <strong>{quote.name}</strong>
                  <small className="num">{quote.code}</small>
                </span>
                <span className={`num ${moveClass(quote.change)}`}>
                  {formatMoney(quote.price, locale, priceDigits(quote.market, quote.price, quote.code))}
                </span>
                <span className={`change-pill ${moveClass(quote.change)}`}>
                  <PctText fraction={quote.changePct} />
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function LatestNews() {
  const { LL, locale } = useI18nContext();
  const newsFirst = newsRead(locale);
  const news = useStationQuery(newsFirst.key, newsFirst.input);
  return (
    <section aria-labelledby="home-news">
      <div className="section-head">
        <h2 id="home-news" className="section-title">
          {LL.content.latestNews()}
        </h2>
        <Link to="/newPage" className="section-more" data-testid="home-news-more">
          {LL.content.moreNews()}
        </Link>
      </div>
      {news.loading ? (
        <Loading />
      ) : !news.data ? (
        news.error && <ErrorState error={news.error} onRetry={news.reload} />
      ) : news.data.list.length === 0 ? (
        <Empty text={LL.content.emptyNews()} />
      ) : (
        <ul className="home-news" data-testid="home-news">
          {news.data.list.map((item) => (
            <li key={item.id}>
              <Link to="/newPage" search={{ id: item.id }} className="home-news-row" lang={item.lang}>
                <strong>{item.title}</strong>
                <small>{LL.content.newsTypes[item.type]()}</small>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
