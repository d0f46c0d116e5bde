/** What /home reads first: the screen's queries and its route's preload (route-prefetch.ts) share them. */
import type { Locales } from '../../../../locales/i18n-types';
import { read } from '../../api/reads';

/** The notice ticker shows the newest notices, one at a time. */
const TICKER_NOTICES = 5;
/** How many headlines the home screen lists. */
const HOME_NEWS = 5;

export const BANNERS_READ = read('GET /api/site/getBannerByPlat.do', { plat: 'h5' });
export const noticesRead = (locale: Locales) =>
  read('GET /api/notice/getNoticeList.do', { pageNum: 1, pageSize: TICKER_NOTICES, lang: locale });
export const HOME_INDEXES_READ = read('GET /api/index/queryListIndex.do', { region: 'cn' });
export const HOT_STOCKS_READ = read('GET /api/stock/getTop.do', { market: 'a', by: 'turnover', limit: 5 });
export const newsRead = (locale: Locales) =>
  read('GET /api/news/getNewsList.do', { pageNum: 1, pageSize: HOME_NEWS, lang: locale });

export const homeReads = (locale: Locales) => [
  BANNERS_READ,
  noticesRead(locale),
  HOME_INDEXES_READ,
  HOT_STOCKS_READ,
  newsRead(locale),
];
