/**
 * A language check over the whole product, in Chromium at 390×844: a user with positions, a watchlist
 * entry, a limit order, messages, a deposit, a withdrawal, a transfer and an exchange opens every route of
 * the spec (§2 "Route list") in each of the five languages (spec §1: texts are translated keys).
 *
 * - en, th, vi: no Han character in any text node, placeholder, title, aria-label or alt, nor in the page's
 *   title, outside an element marked `lang="zh-*"` (a user's real name stays Chinese and is marked so;
 *   news, notices and college articles not yet translated fall back to Chinese and say so with their
 *   `lang`, which is why the marking is checked rather than trusted: content is always rendered with the
 *   `lang` of the language it is written in).
 * - zh-CN, zh-TW: no Latin word outside codes, tickers and units (runs of capitals and digits: AAPL,
 *   SH000300, IF0, USD), the short list of words below, and elements marked with another language (each
 *   language's own name in the language picker).
 *
 * Routes are visited inside one page by the app's own navigation (history), so the check stays fast: one
 * station, one browser, one page per language.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import en from '../../locales/en';
import { FixedClock } from '../../server/market/clock';
import type { Order, Page as ListPage, Position, UserMessagePage } from '../../src/shared/api/types';
import { newPhoneContext, stationClient, watchPageErrors, type E2eSession } from './harness';
import { stationForFile } from './file-station';

/** Wednesday 2025-03-12 10:00 in Shanghai: inside the deposit and withdrawal hours. */
const clock = new FixedClock(Date.UTC(2025, 2, 12, 2, 0, 0));
let app: FastifyInstance;
let url: string;
const e2e = stationForFile({ REVIEW_DELAY_S: '0' }, { clock }, (station) => {
  ({ app, url } = station);
});

/**
 * Latin words a Chinese reader sees on purpose, each with its reason. Anything in capitals and digits only
 * (tickers, codes, currencies, "VIP", "K") passes without being listed.
 */
const LATIN_ALLOWED: Record<string, string> = {
  PaperDesk: 'the product name',
  Meta: 'the company’s own name, written so in Chinese too (Meta平台)',
  Cookie: 'the usual word in Chinese privacy texts (the privacy page)',
};

interface Leak {
  where: string;
  text: string;
}

/**
 * Runs in the page: every shown text (text nodes, placeholder, title, aria-label, alt, document.title)
 * outside an element whose `lang` is zh-*, tested with `pattern`; returns the offending texts. Text inside
 * <script>, <style> and <template> is not shown. Written as text: this file is compiled without the DOM's types.
 */
const FIND_LEAKS = `(({ source, flags, mode, allowed }) => {
  const pattern = new RegExp(source, flags);
  const allowedSet = new Set(allowed);
  const offends = (text) => {
    if (mode === 'han') return pattern.test(text);
    const words = text.match(pattern) || [];
    return words.some((w) => !/^[A-Z0-9]+$/.test(w) && !allowedSet.has(w));
  };
  // An element marked with a language other than the page's says what it holds: zh-* in a Latin page (a real
  // name), another language in a Chinese page (each language's own name in the language picker).
  const markedOther = (el) => {
    const marked = el.closest('[lang]');
    if (!marked || marked === document.documentElement) return false;
    const zh = /^zh/i.test(marked.getAttribute('lang'));
    return mode === 'han' ? zh : !zh;
  };
  const label = (el) => {
    const id = el.closest('[data-testid]');
    return el.tagName.toLowerCase() + (id ? ' in [data-testid=' + id.getAttribute('data-testid') + ']' : '');
  };
  const leaks = [];
  if (offends(document.title)) leaks.push({ where: 'document.title', text: document.title });
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest('script, style, template, noscript')) continue;
    const text = node.nodeValue.trim();
    if (text && offends(text) && !markedOther(parent)) {
      leaks.push({ where: label(parent), text: text.slice(0, 120) });
    }
  }
  for (const el of document.body.querySelectorAll('[placeholder], [title], [aria-label], [alt]')) {
    for (const attr of ['placeholder', 'title', 'aria-label', 'alt']) {
      const value = el.getAttribute(attr);
      if (value && offends(value) && !markedOther(el)) {
        leaks.push({ where: label(el) + ' @' + attr, text: value.slice(0, 120) });
      }
    }
  }
  return leaks;
})`;

const HAN = { source: '\\p{Script=Han}', flags: 'u', mode: 'han' };
/** A Latin word: two letters or more (single letters are units such as K for the candle chart or x). */
const LATIN = { source: '[A-Za-z][A-Za-z0-9]+', flags: 'g', mode: 'latin' };

async function findLeaks(page: Page, zh: boolean): Promise<Leak[]> {
  const args = { ...(zh ? LATIN : HAN), allowed: Object.keys(LATIN_ALLOWED) };
  return page.evaluate(`${FIND_LEAKS}(${JSON.stringify(args)})`);
}

/**
 * Goes to `path` by the app's own history (no reload, as a tap on a link would) and waits, inside the page
 * (one round trip per route), until the screen has drawn what it loads: nothing says loading and its text
 * stayed the same for two looks 40 ms apart (live prices change digits only, so digits are ignored); five
 * seconds at most. Written as text: this file is compiled without the DOM's types.
 */
const VISIT = `((path) => new Promise((resolve) => {
  history.pushState(history.state, '', path);
  dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
  const deadline = Date.now() + 5000;
  let last = null;
  let stable = 0;
  const look = () => {
    const busy = document.querySelector('[data-testid="loading"], [aria-busy="true"]');
    const here = location.pathname + location.search === path;
    const snapshot = busy || !here ? null : document.title + document.body.innerText.replace(/[0-9]/g, '');
    if (snapshot !== null && snapshot === last) stable += 1;
    else stable = 0;
    last = snapshot;
    if (stable >= 2 || Date.now() > deadline) resolve(stable >= 2);
    else setTimeout(look, 40);
  };
  setTimeout(look, 40);
}))`;

/** Visits `path`; false when the screen did not settle within the time (the check still looks at it). */
async function visit(page: Page, path: string): Promise<boolean> {
  return (await page.evaluate(`${VISIT}(${JSON.stringify(path)})`)) as boolean;
}

/**
 * Polls `expression` in the page until it is true. Not page.waitForFunction: that evaluates text with
 * eval inside the page, which the app's Content-Security-Policy (rightly) refuses.
 */
async function until(page: Page, expression: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${expression}`);
    await page.waitForTimeout(50);
  }
}

interface Fixture {
  session: E2eSession;
  position: Position;
  messageId: number;
}

/**
 * The user the check logs in as, made over HTTP: KYC passed (the real name in Chinese characters, spec §5),
 * a bank card, a deposit decided, positions in A-shares, Hong Kong and US stocks, a limit
 * order, a watchlist, a transfer, an exchange and a withdrawal; the station's messages about them.
 */
async function makeUser(): Promise<Fixture> {
  const station = stationClient(url);
  const session = await station.registerUser('1370055');
  await station.submitKyc(session.token, '王五');
  await app.kycReviewer.run();
  await station.call('POST', '/user/bank/add.do', session.token, {
    bankName: '工商银行',
    branch: '北京分行',
    cardNo: '6222020200119876543',
  });
  await station.call('POST', '/user/insertWithPwd.do', session.token, { withPwd: '135790' });
  const requestId = () => crypto.randomUUID();
  await station.call('POST', '/user/recharge/inMoney.do', session.token, {
    amount: 1234.5,
    channelId: 1,
    requestId: requestId(),
  });
  clock.advance(1000);
  await app.engine.step();
  const buy = (code: string, lots: number) =>
    station.call<Position>('POST', '/user/buy.do', session.token, {
      code,
      lots,
      leverage: 2,
      requestId: requestId(),
    });
  const position = await buy('AAPL', 3);
  await buy('600000', 2);
  await buy('00700', 1);
  await station.call('POST', '/user/transAmt.do', session.token, {
    amount: 1_000,
    from: 'main',
    to: 'index',
    requestId: requestId(),
  });
  const aapl = app.market.quote(app.market.get('AAPL'), clock.now()).price;
  await station.call<Order>('POST', '/user/addOrder.do', session.token, {
    code: 'AAPL',
    lots: 1,
    leverage: 1,
    triggerPrice: Number((aapl * 0.5).toFixed(2)),
    requestId: requestId(),
  });
  for (const code of ['AAPL', '00700', '600000']) {
    await station.call('POST', '/user/addOption.do', session.token, { code });
  }
  await station.call('POST', '/api/user/exchange.do', session.token, {
    amount: 100,
    source: 'CNY',
    target: 'HKD',
    requestId: requestId(),
  });
  await station.call('POST', '/user/withdraw/outMoney.do', session.token, {
    amount: 200,
    withdrawPassword: '135790',
    requestId: requestId(),
  });
  const messages = await station.call<UserMessagePage>('GET', '/user/cash/getMessagelist.do', session.token, {
    pageNum: 1,
    pageSize: 20,
  });
  expect(messages.list.length).toBeGreaterThan(0);
  const open = await station.call<ListPage<Position>>('GET', '/user/position/list.do', session.token, {
    state: 'open',
    pageSize: 100,
  });
  expect(open.list.map((p) => p.code).sort()).toEqual(['00700', '600000', 'AAPL']);
  return { session, position, messageId: messages.list[0]!.id };
}

/** Every route of the spec (§2 "Route list") and the app's own, with what a screen needs to show its content. */
function routes(f: Fixture): string[] {
  return [
    '/home',
    '/jijin',
    '/college',
    '/DragonTiger',
    '/topTen',
    '/daylimit',
    '/stopRecovery',
    '/calendar',
    '/Subscription',
    '/newsharesDetail',
    '/sharerecord',
    '/zhongqianrecord',
    '/qingchouDetail',
    '/vipdetail',
    '/about',
    '/buy?code=AAPL',
    '/buy?code=600000',
    '/newPage',
    '/newGg',
    '/forget',
    '/openaccount',
    '/trading-list',
    '/trading-list?market=us',
    '/trading-list?market=index',
    '/trading-list?market=futures',
    '/hk-list',
    '/indexsearchlist',
    '/indexlist',
    '/searchlist',
    '/searchmylist',
    '/mylist',
    '/listdetail?code=AAPL',
    '/listdetail?code=600000',
    '/listdetail2?code=SH000300&market=index',
    '/listdetail2?code=IF0&market=futures',
    '/indexBuy?code=SH000300',
    '/twoBuy?code=600000',
    '/subWarehouseBuy',
    '/futuresBuy?code=IF0',
    '/inquiry',
    '/transfer',
    '/warehouse',
    '/warehouse?tab=orders',
    '/holdorderlist',
    '/holdorderlist2',
    '/sellorderlist',
    '/sellorderlist2',
    `/detail?id=${f.position.id}`,
    '/card',
    '/authentication',
    '/aggre',
    '/rechargeSure',
    '/rechargelist',
    '/cash',
    '/addCard',
    '/cashlist',
    '/setting',
    '/agree',
    '/trade',
    `/alertdetail?id=${f.messageId}`,
    '/funds',
    '/days',
    '/searchStock',
    '/notify',
    '/fundslist',
    '/kline?code=AAPL',
    '/kline?code=00700',
    '/TradingBuy?code=00700',
    '/User',
    '/exchange',
    '/exchangeLog',
    '/account',
    '/wallet',
    '/transferRecord',
    '/cashWithdrawalRecord',
    '/transfers',
    '/authentications',
    '/bankCard',
    '/service',
    '/recharge',
    '/withdraw',
    '/zf',
    '/btc',
    '/loginPassword',
    '/setPassword',
    '/FundingDetails',
    '/setup',
    '/buyStocks?code=00700',
    `/sellStocks?id=${f.position.id}`,
    '/smrz',
    '/bankUpDate',
    '/sharerecordDz',
    '/VipSearchlist',
    '/MyList',
    '/user',
    '/login',
    '/register',
  ];
}

const LANGUAGES = ['en', 'th', 'vi', 'zh-CN', 'zh-TW'] as const;

describe('every screen speaks the reader’s language', () => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await makeUser();
  }, 60_000);

  it.each(LANGUAGES)(
    'shows no text of another language on any route (%s)',
    async (lang) => {
      const zh = lang.startsWith('zh');
      const context = await newPhoneContext(e2e.browser);
      await context.addInitScript({
        content: `localStorage.setItem('paperdesk.session', ${JSON.stringify(JSON.stringify(fixture.session))});`,
      });
      const page = await context.newPage();
      const errors = watchPageErrors(page);
      await page.goto(`${url}/home?lang=${lang}`);
      await until(page, `document.documentElement.lang === ${JSON.stringify(lang)}`);
      const leaks: string[] = [];
      for (const path of routes(fixture)) {
        const t0 = Date.now();
        const settled = await visit(page, path);
        if (process.env.LANG_CHECK_TIMES) console.log(lang, path, Date.now() - t0, settled);
        for (const leak of await findLeaks(page, zh)) leaks.push(`${path} ${leak.where}: ${leak.text}`);
      }
      expect([...new Set(leaks)]).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    },
    120_000,
  );

  it('lets an English reader search "Apple Inc.", buy it and find "Apple Inc." among the positions', async () => {
    const session = await stationClient(url).registerUser('1370066');
    const context = await newPhoneContext(e2e.browser);
    await context.addInitScript({
      content: `localStorage.setItem('paperdesk.session', ${JSON.stringify(JSON.stringify(session))});`,
    });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${url}/searchlist?lang=en`);
    await page.getByTestId('search-input').fill('Apple Inc.');
    const row = page.getByTestId('search-row-AAPL');
    await row.waitFor();
    expect(await row.textContent()).toContain('Apple Inc.');
    await row.click();
    await page.waitForURL(/\/listdetail\?code=AAPL/);
    await page.getByTestId('buy-button').click();
    await page.waitForURL(/\/buy\?code=AAPL/);
    // US stocks trade in single shares: the form counts shares, not lots.
    await page.getByText(en.buy.sharesToBuy, { exact: true }).waitFor();
    expect(await page.getByText(en.buy.lots, { exact: true }).count()).toBe(0);
    await page.locator('input[name="lots"]').fill('2');
    await page.getByTestId('buy-confirm').click();
    await page.getByTestId('order-confirm-sheet').getByTestId('order-submit').click();
    await page.waitForURL(/\/warehouse/);
    const position = page.getByTestId('positions-open').getByTestId('position-row').first();
    await position.waitFor();
    expect(await position.locator('h3').textContent()).toBe('Apple Inc.');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('writes fund names and NAVs in the reader’s language and number format (Vietnamese)', async () => {
    const funds = (await (
      await fetch(`${url}/api/fund/list.do`, { headers: { 'Accept-Language': 'vi' } })
    ).json()) as { data: { code: string; name: string; nav: number }[] };
    const fund = funds.data[0]!;
    const context = await newPhoneContext(e2e.browser);
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${url}/jijin?lang=vi`);
    const row = page.getByTestId(`fund-${fund.code}`);
    await row.waitFor();
    expect(await row.locator('strong').textContent()).toBe(fund.name);
    // Vietnamese writes 1,2345 where English writes 1.2345 (spec §9: the locale's number format).
    const nav = new Intl.NumberFormat('vi', { minimumFractionDigits: 4, maximumFractionDigits: 4 }).format(
      fund.nav,
    );
    expect(nav).toContain(',');
    expect(await row.locator('.fund-figures > span').first().textContent()).toBe(nav);
    expect(errors).toEqual([]);
    await context.close();
  });
});
