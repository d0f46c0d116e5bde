import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { TAB_PATHS } from '../../src/app/state/shell';
import { appScreens } from '../app-routes';
import en from '../../locales/en';
import th from '../../locales/th';
import vi from '../../locales/vi';
import zhCN from '../../locales/zh-CN';
import zhTW from '../../locales/zh-TW';
import { newPhoneContext, stationClient, watchPageErrors } from './harness';
import { stationForFile } from './file-station';

const e2e = stationForFile();

declare global {
  interface Window {
    __vibrations?: number[];
  }
}

async function openPage(setup?: (context: BrowserContext) => Promise<void>): Promise<{
  context: BrowserContext;
  page: Page;
  errors: string[];
}> {
  const context = await newPhoneContext(e2e.browser);
  await setup?.(context);
  const page = await context.newPage();
  return { context, page, errors: watchPageErrors(page) };
}

/** The visible texts of the page, one per text node, trimmed (the app's own strings, not the data). */
async function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? '';
      const parent = node.parentElement;
      if (!text || !parent || parent.closest('script, style, noscript, [aria-hidden="true"]')) continue;
      const box = parent.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      out.push(text);
    }
    return out;
  });
}

/** Waits until the app shows `path` (client-side navigation changes the URL without a page load). */
async function onPath(page: Page, path: string): Promise<void> {
  await page
    .waitForFunction((p) => location.pathname === p, path, { timeout: 15_000 })
    .catch(async () => {
      throw new Error(`expected to reach ${path}, still on ${await page.evaluate(() => location.href)}`);
    });
}

/** Waits until <main> holds the screen (`selector`) with the slide class `slide`. */
async function mainShows(page: Page, slide: string, selector: string): Promise<void> {
  await page.waitForFunction(
    ([cls, sel]) => {
      const main = document.querySelector('main#main');
      return !!main && main.classList.contains(cls!) && !!main.querySelector(sel!);
    },
    [slide, selector],
  );
}

/**
 * Link names that say nothing of where the link leads, per language: Lighthouse's descriptive-link-text list
 * for English and the same words in the app's other languages, plus the bare "details", "view" and "all".
 */
const GENERIC_LINK_NAMES = new Set([
  ...['click here', 'click this', 'go', 'here', 'information', 'learn more', 'more', 'more info'],
  ...['more information', 'right here', 'read more', 'see more', 'start', 'this', 'details', 'view'],
  ...['view more', 'see all', 'all', 'open', 'link'],
  ...['更多', '详情', '詳情', '查看', '查看更多', '了解更多', '点击这里', '點擊這裡', '这里', '這裡', '全部'],
  ...['เพิ่มเติม', 'ดูเพิ่มเติม', 'รายละเอียด', 'คลิกที่นี่', 'ที่นี่', 'ทั้งหมด'],
  ...['thêm', 'xem thêm', 'chi tiết', 'xem', 'bấm vào đây', 'tại đây', 'tất cả'],
]);

/** The computed accessible name of every link of the page, as Chromium's accessibility tree gives it. */
async function linkNames(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
    nodes: { ignored: boolean; role?: { value: string }; name?: { value: string } }[];
  };
  await cdp.detach();
  return nodes
    .filter((node) => !node.ignored && node.role?.value === 'link')
    .map((node) => node.name?.value.trim() ?? '');
}

const titleOf = (dict: { titles: Record<string, string>; app: { name: string } }, key: string) =>
  `${dict.titles[key]} · ${dict.app.name}`;

describe('app shell in Chromium at 390×844', () => {
  it('sends an unknown path and the root to /home, and keeps case: /HOME is unknown', async () => {
    const { context, page, errors } = await openPage();
    for (const start of ['/no/such/page?lang=en', '/HOME', '/']) {
      await page.goto(`${e2e.station.url}${start}`);
      await onPath(page, '/home');
      await page.getByTestId('greeting').waitFor();
    }
    expect(await page.title()).toBe(titleOf(en, 'home'));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('moves between the six tabs: the selected tab follows the path, a tap vibrates 55 ms and gives 0.5 s feedback', async () => {
    const { context, page, errors } = await openPage(async (ctx) => {
      await ctx.addInitScript(() => {
        window.__vibrations = [];
        Object.defineProperty(navigator, 'vibrate', {
          configurable: true,
          value: (ms: number) => {
            window.__vibrations!.push(ms);
            return true;
          },
        });
      });
    });
    await page.goto(`${e2e.station.url}/home?lang=en`);
    await page.getByTestId('greeting').waitFor();
    const keys: Record<string, string> = {
      '/home': 'home',
      '/trading-list': 'tradingList',
      '/hk-list': 'hkList',
      '/warehouse': 'warehouse',
      '/MyList': 'myList',
      '/user': 'user',
    };
    for (const path of [...TAB_PATHS.slice(1), TAB_PATHS[0]]) {
      const tab = page.getByTestId(`tab-${path.slice(1)}`);
      // A tap, and how long the press feedback (class "pressed") then shows, timed in the page itself.
      const feedbackMs = await page.evaluate(
        async (testId) => {
          // The tab as it is in the document now (looked up each time, should React replace the node).
          const find = () => document.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
          const pressed = () => find()?.classList.contains('pressed') ?? false;
          const start = performance.now();
          const until = async (done: () => boolean) => {
            while (!done() && performance.now() - start < 5000) await new Promise((r) => setTimeout(r, 5));
            return done() ? performance.now() : Number.NaN;
          };
          find()!.click();
          const on = await until(pressed);
          const off = await until(() => !pressed());
          return off - on;
        },
        `tab-${path.slice(1)}`,
      );
      expect(feedbackMs, path).toBeGreaterThanOrEqual(450);
      expect(feedbackMs, path).toBeLessThan(1500);
      await onPath(page, path);
      expect(await tab.getAttribute('aria-current'), path).toBe('page');
      expect(await page.locator('.tab-bar [aria-current="page"]').count(), path).toBe(1);
      await page.waitForFunction((t) => document.title === t, titleOf(en, keys[path]!));
      if (path === '/warehouse') {
        // Logged out, the positions tab needs a session: the tap also opened the login sheet.
        await page.getByTestId('login-sheet').waitFor();
        await page.getByRole('button', { name: en.common.close }).click();
        await page.getByTestId('login-sheet').waitFor({ state: 'detached' });
      }
    }
    expect(await page.evaluate(() => window.__vibrations)).toEqual(TAB_PATHS.map(() => 55));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('slides forward pages in from the right and back pages from the left, and not at all with reduced motion', async () => {
    const { context, page } = await openPage();
    await page.goto(`${e2e.station.url}/home?lang=en`);
    await page.getByTestId('greeting').waitFor();
    await page.getByTestId('tab-user').click();
    await onPath(page, '/user');
    await mainShows(page, 'slide-left', '[data-testid="theme-red"]');
    await page.getByTestId('tab-trading-list').click();
    await onPath(page, '/trading-list');
    await mainShows(page, 'slide-right', '[data-testid^="quote-row-"], [role="tablist"]');
    expect(await page.locator('main#main').evaluate((el) => getComputedStyle(el).animationName)).toBe(
      'slide-from-left',
    );
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.getByTestId('tab-home').click();
    await onPath(page, '/home');
    await mainShows(page, 'slide-right', '[data-testid="greeting"]');
    expect(await page.locator('main#main').evaluate((el) => getComputedStyle(el).animationName)).toBe('none');
    await context.close();
  });

  it('keeps the chosen theme and up/down colours across a reload', async () => {
    const { context, page, errors } = await openPage();
    await page.goto(`${e2e.station.url}/user?lang=zh-CN`);
    await page.getByTestId('theme-black').click();
    await page.getByTestId('price-colors-green-up').click();
    const vars = () =>
      page.evaluate(() => ({
        theme: document.documentElement.dataset.theme,
        bg: getComputedStyle(document.documentElement).getPropertyValue('--bg').trim(),
        up: getComputedStyle(document.documentElement).getPropertyValue('--up').trim(),
      }));
    expect(await vars()).toEqual({ theme: 'black', bg: '#0f1014', up: '#1fbf75' });
    await page.reload();
    await page.getByTestId('theme-black').waitFor();
    expect(await vars()).toEqual({ theme: 'black', bg: '#0f1014', up: '#1fbf75' });
    expect(await page.getByTestId('theme-black').getAttribute('aria-checked')).toBe('true');
    await page.getByTestId('theme-red').click();
    await page.getByTestId('price-colors-red-up').click();
    await page.reload();
    await page.getByTestId('theme-red').waitFor();
    expect(await vars()).toEqual({ theme: 'red', bg: '#f4f5f7', up: '#d9261c' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('?lang=en then ?lang=th change every visible text, the title and the Accept-Language of the next call', async () => {
    const { context, page, errors } = await openPage();
    const languages: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/')) {
        languages.push(request.headers()['accept-language'] ?? '');
      }
    });
    await page.goto(`${e2e.station.url}/user?lang=en`);
    await page.getByTestId('theme-red').waitFor();
    await page.waitForLoadState('networkidle');
    const english = await visibleTexts(page);
    expect(english).toContain(en.tabs.home);
    expect(await page.title()).toBe(titleOf(en, 'user'));
    expect(languages.length).toBeGreaterThan(0);
    expect(new Set(languages)).toEqual(new Set(['en']));

    languages.length = 0;
    await page.goto(`${e2e.station.url}/user?lang=th`);
    await page.getByText(th.user.settings).waitFor();
    await page.waitForLoadState('networkidle');
    const thai = await visibleTexts(page);
    expect(thai).toContain(th.tabs.home);
    expect(await page.title()).toBe(titleOf(th, 'user'));
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('th');
    // Every English text is gone, except names that are the same in every language.
    const same = new Set(['PaperDesk', 'English', '简体中文', '繁體中文', 'ไทย', 'Tiếng Việt']);
    const left = english.filter(
      (text) => !same.has(text) && /[A-Za-z]{2,}/.test(text) && thai.includes(text),
    );
    expect(left).toEqual([]);
    expect(languages.length).toBeGreaterThan(0);
    expect(new Set(languages)).toEqual(new Set(['th']));

    // The choice is stored: a URL without ?lang= stays in Thai, and a call made now says so.
    languages.length = 0;
    await page.goto(`${e2e.station.url}/trading-list`);
    await page.locator('[data-testid^="quote-row-"]').first().waitFor();
    expect(await page.getByTestId('tab-home').innerText()).toBe(th.tabs.home);
    expect(languages).toContain('th');
    expect(languages.every((l) => l === 'th')).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('on a NOT_LOGGED_IN answer shows the toast, drops the token and opens /login about 1 s later', async () => {
    const { context, page, errors } = await openPage(async (ctx) => {
      await ctx.addInitScript(() => {
        if (!sessionStorage.getItem('seeded')) {
          sessionStorage.setItem('seeded', '1');
          localStorage.setItem('paperdesk.session', JSON.stringify({ token: 'expired-token', user: null }));
        }
        // In the page's own clock: when the toast first shows, and when the path first becomes /login.
        const marks: { toast?: number; login?: number } = {};
        (window as unknown as { __marks: typeof marks }).__marks = marks;
        new MutationObserver(() => {
          if (marks.toast === undefined && document.querySelector('[data-testid="toast"]')) {
            marks.toast = performance.now();
          }
          if (marks.login === undefined && location.pathname === '/login') marks.login = performance.now();
        }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
      });
    });
    await page.goto(`${e2e.station.url}/FundingDetails?lang=zh-CN`);
    const toast = page.getByTestId('toast');
    await toast.waitFor();
    expect(await toast.innerText()).toBe(zhCN.errors.NOT_LOGGED_IN_TOAST);
    await onPath(page, '/login');
    await page.getByTestId('login-submit').waitFor();
    const marks = await page.evaluate(
      () => (window as unknown as { __marks: { toast: number; login: number } }).__marks,
    );
    expect(marks.login - marks.toast).toBeGreaterThanOrEqual(900);
    expect(marks.login - marks.toast).toBeLessThan(2000);
    const stored = await page.evaluate(() => localStorage.getItem('paperdesk.session'));
    expect(JSON.parse(stored ?? '{}')).toMatchObject({ token: null });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens the login sheet (half the screen) from a tab that needs a session, and closes it', async () => {
    const { context, page, errors } = await openPage();
    await page.goto(`${e2e.station.url}/home?lang=en`);
    await page.getByTestId('greeting').waitFor();
    await page.getByTestId('tab-warehouse').click();
    const sheet = page.getByTestId('login-sheet');
    await sheet.waitFor();
    expect(await sheet.getAttribute('role')).toBe('dialog');
    expect(await sheet.innerText()).toContain(en.loginPrompt.title);
    // spec §9: the sheet takes half the screen (once its slide-up has finished).
    await page.waitForFunction(() => {
      const el = document.querySelector('[data-testid="login-sheet"]');
      return !!el && el.getBoundingClientRect().height / window.innerHeight >= 0.49;
    });
    await page.getByRole('button', { name: en.common.close }).click();
    await sheet.waitFor({ state: 'detached' });
    // Again, then Register leads to /register and hides the sheet.
    await page.getByTestId('tab-home').click();
    await page.getByTestId('tab-warehouse').click();
    await sheet.waitFor();
    await sheet.getByRole('button', { name: en.common.register }).click();
    await onPath(page, '/register');
    expect(await sheet.count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('serves every route of the spec as a screen of its own, with its title', async () => {
    const { context, page, errors } = await openPage();
    await page.goto(`${e2e.station.url}/home?lang=en`);
    await page.getByTestId('greeting').waitFor();
    for (const route of appScreens()) {
      await page.goto(`${e2e.station.url}${route.path}`);
      await page.waitForFunction((t) => document.title === t, titleOf(en, route.meta.titleKey));
      expect(new URL(page.url()).pathname, route.path).toBe(route.path);
      await page.locator('main#main > *').first().waitFor();
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('gives every control an accessible name and a 44 px target, on the tab screens', async () => {
    const { context, page } = await openPage();
    const problems: string[] = [];
    for (const path of TAB_PATHS) {
      await page.goto(`${e2e.station.url}${path}?lang=en`);
      await page.waitForLoadState('networkidle');
      const found = await page.evaluate(() => {
        const out: string[] = [];
        for (const el of document.querySelectorAll<HTMLElement>(
          'a[href], button, select, input, [role="tab"], [role="radio"]',
        )) {
          const box = el.getBoundingClientRect();
          if (box.width === 0 || box.height === 0) continue;
          const labelled =
            el.getAttribute('aria-label') ||
            el.getAttribute('aria-labelledby') ||
            el.innerText.trim() ||
            (el.id && document.querySelector(`label[for="${el.id}"]`)) ||
            el.getAttribute('title');
          const name = `${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ''} "${el.innerText.trim().slice(0, 20)}"`;
          if (!labelled) out.push(`${name}: no accessible name`);
          if (box.height < 44 && !el.closest('p'))
            out.push(`${name}: ${Math.round(box.width)}×${Math.round(box.height)}`);
        }
        return out;
      });
      problems.push(...found.map((p) => `${path} ${p}`));
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('fits each tab label on one line and each market tag in its row, in every language, at 12 px or more', async () => {
    const { context, page, errors } = await openPage();
    const dictionaries = { en, th, vi, 'zh-CN': zhCN, 'zh-TW': zhTW };
    const problems: string[] = [];
    for (const [lang, dict] of Object.entries(dictionaries)) {
      await page.goto(`${e2e.station.url}/trading-list?lang=${lang}`);
      await page.locator('[data-testid^="quote-row-"] [data-testid="market-tag"]').first().waitFor();
      expect(await page.getByTestId('tab-home').innerText(), lang).toBe(dict.tabs.home);
      const found = await page.evaluate(() => {
        const out: string[] = [];
        const lineHeight = (el: Element) => {
          const style = getComputedStyle(el);
          return Number.parseFloat(style.lineHeight) || Number.parseFloat(style.fontSize) * 1.5;
        };
        for (const label of document.querySelectorAll<HTMLElement>('.tab-bar .tab-label')) {
          const tab = label.closest('.tab')!.getBoundingClientRect();
          const box = label.getBoundingClientRect();
          const size = Number.parseFloat(getComputedStyle(label).fontSize);
          const name = `tab "${label.innerText}"`;
          if (size < 12) out.push(`${name}: ${size}px`);
          if (box.height > lineHeight(label) + 1)
            out.push(`${name}: wraps (${Math.round(box.height)}px high)`);
          if (label.scrollWidth > box.width + 1 || box.left < tab.left - 1 || box.right > tab.right + 1)
            out.push(`${name}: ${Math.round(label.scrollWidth)}px in a ${Math.round(tab.width)}px tab`);
        }
        for (const tag of document.querySelectorAll<HTMLElement>('[data-testid^="quote-row-"] .market-tag')) {
          const row = tag.closest('[data-testid^="quote-row-"]')!.getBoundingClientRect();
          const line = tag.parentElement!.getBoundingClientRect();
          const box = tag.getBoundingClientRect();
          const size = Number.parseFloat(getComputedStyle(tag).fontSize);
          const name = `tag "${tag.innerText}"`;
          if (size < 12) out.push(`${name}: ${size}px`);
          if (box.top < row.top || box.bottom > row.bottom || box.right > line.right + 1)
            out.push(`${name}: outside its row`);
          if (tag.scrollWidth > tag.clientWidth + 1 || box.height > lineHeight(tag) + 4)
            out.push(`${name}: its text overflows or wraps`);
        }
        return out;
      });
      problems.push(...found.map((p) => `${lang} ${p}`));
    }
    expect(problems).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('names every link by where it leads, never "More" or "Details", on /home, /user and a header more icon, in every language', async () => {
    const session = await stationClient(e2e.station.url).registerUser('1390061');
    const { context, page, errors } = await openPage(async (ctx) => {
      await ctx.addInitScript(
        (stored) => localStorage.setItem('paperdesk.session', stored),
        JSON.stringify(session),
      );
    });
    const generic: string[] = [];
    let links = 0;
    for (const lang of ['en', 'zh-CN', 'zh-TW', 'th', 'vi']) {
      for (const [path, ready] of [
        ['/home', 'home-news-more'],
        ['/user', 'link-about'],
        // A screen whose header carries the more icon (spec §2): an icon link, named by its label alone.
        ['/recharge', 'header-more'],
      ] as const) {
        await page.goto(`${e2e.station.url}${path}?lang=${lang}`);
        await page.getByTestId(ready).waitFor();
        await page.waitForLoadState('networkidle');
        const names = await linkNames(page);
        links += names.length;
        generic.push(
          ...names
            .filter((name) => !name || GENERIC_LINK_NAMES.has(name.toLowerCase()))
            .map((name) => `${lang} ${path}: "${name}"`),
        );
      }
    }
    expect(links).toBeGreaterThan(30);
    expect(generic).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
