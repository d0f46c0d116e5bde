import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { FixedClock } from '../../server/market/clock';
import { runOperatorCommand } from '../../server/cli/commands';
import en from '../../locales/en';
import th from '../../locales/th';
import vi from '../../locales/vi';
import zhCN from '../../locales/zh-CN';
import zhTW from '../../locales/zh-TW';
import { newPhoneContext, watchPageErrors } from './harness';
import { stationForFile } from './file-station';

let app: FastifyInstance;
let url: string;
let dataDir: string;
/** Wednesday 2025-03-12 02:00 UTC; the test moves it to make the simulated prices move. */
const clock = new FixedClock(Date.UTC(2025, 2, 12, 2, 0, 0));

const e2e = stationForFile({}, { clock }, (station) => {
  ({ app, url, dataDir } = station);
});

async function openPage(): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const context = await newPhoneContext(e2e.browser);
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  return { page, errors, close: () => context.close() };
}

describe('home, news, college and site pages in the browser', () => {
  it('shows the home screen with live index prices, banners, notices, entries, hot stocks and news', async () => {
    const { page, errors, close } = await openPage();
    await page.goto(`${url}/home?lang=en`);
    await page.getByTestId('greeting').waitFor();
    await page.getByTestId('index-cards').waitFor();
    const cards = page.locator('[data-testid^="index-card-"]');
    expect(await cards.count()).toBe(3);
    // The stream takes over from the list call: a card hears its first tick, then its price moves on.
    const live = page.locator('[data-testid^="index-card-"][data-live="true"]').first();
    await live.waitFor({ timeout: 30_000 });
    const testId = (await live.getAttribute('data-testid'))!;
    const price = page.locator(`[data-testid="${testId}"] .index-price`);
    const first = await price.getAttribute('data-value');
    expect(Number(first)).toBeGreaterThan(0);
    // Simulated prices move minute by minute: five minutes later the stream's next tick shows the new one.
    clock.advance(5 * 60_000);
    await page.waitForFunction(
      ([id, before]) =>
        document.querySelector(`[data-testid="${id}"] .index-price`)?.getAttribute('data-value') !== before,
      [testId, first] as const,
      { timeout: 15_000 },
    );
    await page.getByTestId('banners').waitFor();
    await page.getByTestId('notice-ticker').waitFor();
    expect(await page.getByTestId('hot-stocks').locator('li').count()).toBe(5);
    expect(await page.getByTestId('home-news').locator('li').count()).toBe(5);
    for (const entry of [
      'aShares',
      'star',
      'subscription',
      'blockTrade',
      'vip',
      'funds',
      'allocation',
      'college',
      'news',
      'newbie',
      'service',
    ])
      expect(await page.getByTestId(`entry-${entry}`).count(), entry).toBe(1);
    expect(await page.getByRole('heading', { name: en.content.latestNews }).count()).toBe(1);
    expect(errors).toEqual([]);
    await close();
  });

  it('draws the first banner as a <picture> Chromium takes as AVIF, in its shape before it loads', async () => {
    const { page, errors, close } = await openPage();
    const pictures: string[] = [];
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (path.startsWith('/icons/banner-')) pictures.push(`${path} ${response.headers()['content-type']}`);
    });
    // The AVIF is held back until the card's shape has been measured: the shape must not wait for it.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/icons/banner-1.avif', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`${url}/home?lang=en`);
    const card = page.locator('[data-testid="banners"] .banner').first();
    const img = card.locator('picture > img');
    await img.waitFor();
    expect(
      await img.evaluate((el) => [...el.parentElement!.querySelectorAll('source')].map((s) => s.type)),
    ).toEqual(['image/avif', 'image/webp']);
    // The first banner is the page's largest paint: fetched at once and first, with its size in the markup.
    expect(await img.getAttribute('width')).toBe('750');
    expect(await img.getAttribute('height')).toBe('280');
    expect(await img.getAttribute('fetchpriority')).toBe('high');
    expect(await img.getAttribute('loading')).toBeNull();
    expect(await img.evaluate((el: HTMLImageElement) => el.complete)).toBe(false);
    const before = (await card.boundingBox())!;
    expect(Math.abs(before.height - (before.width * 280) / 750)).toBeLessThan(1);
    release();
    await page.waitForFunction(
      () => {
        const el = document.querySelector<HTMLImageElement>('[data-testid="banners"] picture > img');
        return !!el && el.complete && el.naturalWidth > 0;
      },
      undefined,
      { timeout: 15_000 },
    );
    expect(new URL(await img.evaluate((el: HTMLImageElement) => el.currentSrc)).pathname).toBe(
      '/icons/banner-1.avif',
    );
    // Only the chosen format is downloaded: not the WebP, not the PNG.
    expect(pictures).toEqual(['/icons/banner-1.avif image/avif']);
    expect(await card.boundingBox()).toEqual(before);
    expect(errors).toEqual([]);
    await close();
  });

  it('falls back to the banner’s PNG when its AVIF cannot be loaded', async () => {
    const { page, close } = await openPage();
    await page.route('**/icons/banner-1.avif', (route) => route.abort('internetdisconnected'));
    await page.goto(`${url}/home?lang=en`);
    await page.waitForFunction(
      () => {
        const el = document.querySelector<HTMLImageElement>('[data-testid="banners"] .banner img');
        return !!el && el.complete && el.naturalWidth > 0;
      },
      undefined,
      { timeout: 15_000 },
    );
    const img = page.locator('[data-testid="banners"] .banner img').first();
    expect(new URL(await img.evaluate((el: HTMLImageElement) => el.currentSrc)).pathname).toBe(
      '/icons/banner-1.png',
    );
    expect(await page.locator('[data-testid="banners"] picture').count()).toBe(0);
    expect(await img.getAttribute('width')).toBe('750');
    await close();
  });

  it('pages the news list by 15 from page 1 as the reader scrolls, to the end', async () => {
    const { page, errors, close } = await openPage();
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/news/getNewsList.do')) {
        const q = new URL(request.url()).searchParams;
        asked.push(`${q.get('pageNum')}/${q.get('pageSize')}`);
      }
    });
    await page.goto(`${url}/newPage?lang=en`);
    const rows = page.getByTestId('news-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(15);
    const total = (
      (await (await page.request.get(`${url}/api/news/getNewsList.do?lang=en`)).json()) as {
        data: { total: number };
      }
    ).data.total;
    expect(total).toBeGreaterThan(30);
    await rows.last().scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="news-row"]').length === 30);
    await rows.last().scrollIntoViewIfNeeded();
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="news-row"]').length === n,
      total,
    );
    await page.getByText(en.common.noMore).waitFor();
    expect(asked).toEqual(['1/15', '2/15', '3/15']);
    expect(errors).toEqual([]);
    await close();
  });

  it('opens a news item and a college article, rendered from Markdown', async () => {
    const { page, errors, close } = await openPage();
    await page.goto(`${url}/newPage?lang=en`);
    const row = page.getByTestId('news-row').first();
    const title = (await row.locator('strong').innerText()).trim();
    await row.click();
    const detail = page.getByTestId('news-detail');
    await detail.waitFor();
    expect(new URL(page.url()).pathname).toBe('/newPage');
    expect(await detail.locator('h2').innerText()).toBe(title);
    expect((await detail.getByTestId('markdown').innerText()).length).toBeGreaterThan(50);

    await page.goto(`${url}/college?lang=en`);
    await page.getByTestId('article-list').waitFor();
    await page.getByTestId('college-indicators').click();
    await page.getByTestId('article-row').filter({ hasText: 'MACD' }).first().click();
    const article = page.getByTestId('article-detail');
    await article.waitFor();
    expect(await article.locator('h2').innerText()).toContain('MACD');
    // The formula list and the note render as elements, not as Markdown marks.
    expect(await article.locator('ol li').count()).toBeGreaterThanOrEqual(3);
    expect(await article.locator('blockquote').count()).toBe(1);
    expect(await article.innerText()).not.toContain('**');
    expect(errors).toEqual([]);
    await close();
  });

  it('shows each page and the news in each language', async () => {
    const { page, errors, close } = await openPage();
    const cases = [
      { lang: 'zh-CN', dict: zhCN, privacy: '隐私政策' },
      { lang: 'en', dict: en, privacy: 'Privacy policy' },
      { lang: 'zh-TW', dict: zhTW, privacy: '隱私權政策' },
      { lang: 'th', dict: th, privacy: 'นโยบายความเป็นส่วนตัว' },
      { lang: 'vi', dict: vi, privacy: 'Chính sách quyền riêng tư' },
    ] as const;
    for (const c of cases) {
      await page.goto(`${url}/home?lang=${c.lang}`);
      await page.getByRole('heading', { name: c.dict.content.latestNews }).waitFor();

      await page.goto(`${url}/agree`);
      const privacy = page.getByTestId('page-privacy');
      await privacy.waitFor();
      expect(await privacy.getAttribute('lang'), c.lang).toBe(c.lang);
      expect(await privacy.locator('h2').innerText(), c.lang).toBe(c.privacy);

      for (const [path, key] of [
        ['/aggre', 'agreement'],
        ['/trade', 'rules'],
        ['/college?doc=newbie', 'newbie'],
        ['/about', 'about'],
      ] as const) {
        await page.goto(`${url}${path}`);
        const shown = page.getByTestId(`page-${key}`);
        await shown.waitFor();
        expect(await shown.getAttribute('lang'), `${c.lang} ${path}`).toBe(c.lang);
      }

      await page.goto(`${url}/newPage`);
      const row = page.getByTestId('news-row').first();
      await row.waitFor();
      // News is written in every language: the reader's own, with no tag naming another.
      expect(await row.getAttribute('lang'), c.lang).toBe(c.lang);
      expect(await row.getByTestId('lang-tag').count(), c.lang).toBe(0);
      expect(await page.locator('.page-header h1').innerText()).toBe(c.dict.titles.news);
    }
    expect(errors).toEqual([]);
    await close();
  });

  it('lets a Thai reader read the notices in Thai, and marks one missing in Thai as English', async () => {
    const { page, errors, close } = await openPage();
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/notice/')) asked.push(request.headers()['accept-language'] ?? '');
    });
    await page.goto(`${url}/newGg?lang=th`);
    const rows = page.getByTestId('notice-list').locator('a.content-row');
    await rows.first().waitFor();
    expect(await page.locator('.page-header h1').innerText()).toBe(th.titles.notices);
    expect(await rows.count()).toBe(20);
    for (const lang of await rows.evaluateAll((links) => links.map((a) => a.getAttribute('lang'))))
      expect(lang).toBe('th');
    expect(await page.getByTestId('lang-tag').count()).toBe(0);

    const title = 'ที่นี่คือสถานีทดสอบการเทรดจำลอง เงินทั้งหมดเป็นเงินจำลอง';
    await rows.filter({ hasText: title }).click();
    const detail = page.getByTestId('notice-detail');
    await detail.waitFor();
    expect(await detail.getAttribute('lang')).toBe('th');
    expect(await detail.locator('h2').innerText()).toBe(title);
    const body = await detail.getByTestId('markdown').innerText();
    expect(body).toContain('แลกเป็นเงินจริงไม่ได้');
    expect(body).not.toMatch(/[A-Za-z]+ [A-Za-z]+ [A-Za-z]+/);
    // The app asked in the reader's language, as every call does.
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(asked.every((lang) => lang === 'th')).toBe(true);

    // The operator hides the Thai version: the notice stays, in English, tagged with its language.
    const id = Number(new URL(page.url()).searchParams.get('id'));
    const edit = (hidden: string) =>
      runOperatorCommand(
        app.station,
        'content-edit',
        [String(id), '--hidden', hidden, '--reason', 'e2e fallback'],
        () => undefined,
        'e2e',
      );
    await edit('yes');
    try {
      await page.goto(`${url}/newGg`);
      const english = page.getByTestId('notice-list').locator('a.content-row', {
        hasText: 'This is a paper-trading test station; all money is play money',
      });
      await english.waitFor();
      expect(await english.getAttribute('lang')).toBe('en');
      expect(await english.getByTestId('lang-tag').innerText()).toBe(th.language.en);
      expect(await rows.count()).toBe(20);
    } finally {
      await edit('no');
    }
    expect(errors).toEqual([]);
    await close();
  });

  it('lets an English reader read a college article in English', async () => {
    const { page, errors, close } = await openPage();
    await page.goto(`${url}/college?lang=en`);
    await page.getByTestId('article-list').waitFor();
    await page.getByTestId('college-risk').click();
    await page.getByTestId('article-row').filter({ hasText: 'The risk ratio and liquidation' }).click();
    const article = page.getByTestId('article-detail');
    await article.waitFor();
    expect(await article.getAttribute('lang')).toBe('en');
    expect(await article.locator('h2').innerText()).toBe('The risk ratio and liquidation');
    expect(await article.getByTestId('lang-tag').count()).toBe(0);
    const text = await article.getByTestId('markdown').innerText();
    expect(text).toContain('Every position shows its own liquidation price');
    expect(text).not.toMatch(/\p{Script=Han}/u);
    expect(await article.locator('h2, h3').allInnerTexts()).toContain('The liquidation price');
    expect(errors).toEqual([]);
    await close();
  });

  it('keeps a customer-service thread the operator answers', async () => {
    const { page, errors, close } = await openPage();
    await page.goto(`${url}/service?lang=en`);
    await page.getByTestId('logged-out').waitFor();
    const phone = `1370000${String(Date.now() % 10_000).padStart(4, '0')}`;
    const sms = (await (
      await page.request.post(`${url}/api/sms/sendRegSms.do`, { form: { phone } })
    ).json()) as { data: { demoCode: string } };
    const reg = (await (
      await page.request.post(`${url}/api/user/reg.do`, {
        form: { phone, password: 'pass1234', code: sms.data.demoCode },
      })
    ).json()) as { data: { token: string; user: { id: number } } };
    // The app keeps its session in localStorage (state/session.ts): log in as that user.
    await page.evaluate(
      (session) => localStorage.setItem('paperdesk.session', JSON.stringify(session)),
      reg.data,
    );
    await page.goto(`${url}/service?lang=en`);
    await page.getByTestId('service-thread').waitFor();
    await page.getByTestId('service-input').fill('How do I enable VIP picks?');
    await page.getByTestId('service-send').click();
    await page.getByTestId('service-message').filter({ hasText: 'How do I enable VIP picks?' }).waitFor();
    await runOperatorCommand(
      app.station,
      'service-reply',
      [String(reg.data.user.id), 'Enabled for you.', '--reason', 'e2e'],
      () => undefined,
      'e2e',
    );
    await page.reload();
    await page.getByTestId('service-message').filter({ hasText: 'Enabled for you.' }).waitFor();
    expect(await page.getByTestId('service-message').count()).toBe(2);
    expect(errors).toEqual([]);
    await close();
  });

  it('never runs a script stored in content: it shows as text', async () => {
    const { page, errors, close } = await openPage();
    const list = (await (await page.request.get(`${url}/api/notice/getNoticeList.do?lang=en`)).json()) as {
      data: { list: { id: number }[] };
    };
    const id = list.data.list[0]!.id;
    const file = join(dataDir, 'hostile.md');
    writeFileSync(
      file,
      'Before\n\n<script>window.__pwned = 1</script>\n\n<img src="x" onerror="window.__pwned = 2">\n\n[click](javascript:window.__pwned=3)\n\nAfter',
    );
    await runOperatorCommand(
      app.station,
      'content-edit',
      [String(id), '--body-file', file, '--reason', 'e2e sanitising'],
      () => undefined,
      'e2e',
    );
    await page.goto(`${url}/newGg?id=${id}&lang=en`);
    const detail = page.getByTestId('notice-detail');
    await detail.waitFor();
    const markdown = detail.getByTestId('markdown');
    expect(await markdown.innerText()).toContain('<script>window.__pwned = 1</script>');
    expect(await markdown.locator('script, img, iframe').count()).toBe(0);
    expect(await markdown.locator('a').count()).toBe(0);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(errors).toEqual([]);
    await close();
  });
});
