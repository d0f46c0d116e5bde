/**
 * Accessibility beyond the scanner, in Chromium at 390×844 against one always-open station: axe-core (WCAG
 * 2.0–2.2 A and AA) over every route of the route tree plus a stock's detail, the full-screen chart, an
 * order form and a position's detail, logged in with real data, in both themes; a log-in, a buy and a sell
 * done with the keyboard alone (visible focus ring, focus trapped in the confirm sheet and given back to
 * its opener); no transition under `prefers-reduced-motion: reduce`; and the buy form at 200% zoom with
 * nothing clipped.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { Position } from '../../src/shared/api/types';
import { appScreens } from '../app-routes';
import { newPhoneContext, stationClient, watchPageErrors, type E2eSession } from './harness';
import { stationForFile } from './file-station';

const e2e = stationForFile();
const axeSource = readFileSync(
  resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'),
  'utf8',
);

/** A stock that trades T+0 (US), so the same session can buy and sell it. */
const CODE = 'AAPL';

interface AxeNode {
  target: string[];
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: AxeNode[];
}

async function contextFor(
  session: E2eSession | null,
  settings: { theme: 'black' | 'red'; lang: 'en' | 'zh-CN' },
  viewport?: { width: number; height: number; deviceScaleFactor: number },
): Promise<BrowserContext> {
  const context = viewport
    ? await e2e.browser.newContext({ ...viewport, isMobile: true, hasTouch: true, locale: 'en-US' })
    : await newPhoneContext(e2e.browser);
  await context.addInitScript({
    content:
      (session
        ? `localStorage.setItem('paperdesk.session', ${JSON.stringify(JSON.stringify(session))});`
        : '') +
      `localStorage.setItem('paperdesk.lang', ${JSON.stringify(JSON.stringify(settings.lang))});` +
      `localStorage.setItem('paperdesk.theme', ${JSON.stringify(JSON.stringify(settings.theme))});`,
  });
  return context;
}

/** Waits until the screen has its content: no loading view, the chart drawn, no animation still running. */
async function settled(page: Page): Promise<void> {
  await page.locator('#main').waitFor();
  await page.waitForFunction(() => {
    if (document.querySelector('[data-testid="loading"], .kline-pending')) return false;
    const chart = document.querySelector('[data-testid="kline-canvas"]');
    if (chart && chart.getAttribute('data-ready') !== 'true') return false;
    return document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity);
  });
}

/**
 * Serious and critical violations on the page. `contrastOnly`: the colour rules alone, for the second theme,
 * whose structure (names, roles, labels) the first theme's full scan has already checked.
 */
async function seriousViolations(page: Page, contrastOnly = false): Promise<AxeViolation[]> {
  // Evaluated through the devtools protocol: the station's CSP (script-src 'self') refuses an inline script.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async (onlyContrast) => {
    const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<unknown> } }).axe;
    const result = (await axe.run(document, {
      runOnly: onlyContrast
        ? { type: 'rule', values: ['color-contrast', 'link-in-text-block'] }
        : { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      resultTypes: ['violations'],
    })) as { violations: AxeViolation[] };
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  }, contrastOnly);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Presses Tab until `selector` has the focus (at most `limit` presses); the focus ring must then show. */
async function tabTo(page: Page, selector: string, limit = 60): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) {
      expect(await focusRingShows(page), `focus ring on ${selector}`).toBe(true);
      return;
    }
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** Whether the focused element draws a focus indicator: an outline of at least 2 px, not transparent. */
async function focusRingShows(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || !el.matches(':focus-visible')) return false;
    const style = getComputedStyle(el);
    return (
      style.outlineStyle !== 'none' &&
      parseFloat(style.outlineWidth) >= 2 &&
      style.outlineColor !== 'rgba(0, 0, 0, 0)' &&
      style.outlineColor !== 'transparent'
    );
  });
}

const testId = (id: string) => `[data-testid="${id}"]`;

describe('accessibility in Chromium at 390×844', () => {
  it('axe finds no serious or critical node on any route, with real data, in both themes', async () => {
    const client = stationClient(e2e.station.url);
    const session = await client.registerUser('1390032');
    const held = await client.call<Position>('POST', '/user/buy.do', session.token, {
      code: CODE,
      lots: 10,
      leverage: 2,
      requestId: crypto.randomUUID(),
    });
    // Every spec route as the tree declares it, then the screens that take a parameter, with one.
    const targets = [
      ...appScreens().map((r) => r.path),
      `/listdetail?code=600000`,
      `/listdetail?code=${CODE}`,
      `/kline?code=600000`,
      `/buy?code=600000`,
      `/buy?code=${CODE}`,
      `/detail?id=${held.id}`,
      `/sellStocks?id=${held.id}`,
    ];
    const found: string[] = [];
    // Black in English (green up), every rule; red in Chinese (red up), the colour rules: both themes and both
    // colour conventions.
    for (const settings of [
      { theme: 'black', lang: 'en' },
      { theme: 'red', lang: 'zh-CN' },
    ] as const) {
      const context = await contextFor(session, settings);
      const page = await context.newPage();
      // Motion off while scanning: the home ticker slides a new notice in every few seconds, and one that
      // starts mid-scan is read at part opacity — a frame of the animation, not a colour of the theme. The
      // reduced-motion test below checks the motion itself.
      await page.emulateMedia({ reducedMotion: 'reduce' });
      const errors = watchPageErrors(page);
      // The first route is loaded; the others are reached by the app's own history, as a tap on a link
      // would, so the app and axe are loaded once per theme rather than once per route.
      await page.goto(`${e2e.station.url}${targets[0]}`);
      await page.evaluate(axeSource);
      for (const target of targets) {
        // The screen's <main> is keyed by its path: a new one means the new screen has mounted.
        const newScreen = await page.evaluate((path) => {
          if (location.pathname + location.search === path) return false;
          const samePath = location.pathname === new URL(path, location.href).pathname;
          document.getElementById('main')?.setAttribute('data-scanned', '');
          history.pushState(history.state, '', path);
          dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
          return !samePath;
        }, target);
        if (newScreen) await page.locator('#main:not([data-scanned])').waitFor();
        await settled(page);
        for (const v of await seriousViolations(page, settings.theme === 'red')) {
          found.push(
            `${settings.theme} ${target}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`,
          );
        }
      }
      expect(errors).toEqual([]);
      await context.close();
    }
    expect(found).toEqual([]);
    // About 90 routes twice, each settled and scanned.
  }, 360_000);

  it('logs in, buys with leverage and sells with the keyboard alone: focus ring, trap in the sheet, focus back', async () => {
    // registerUser's first phone with this prefix, and its password.
    const session = await stationClient(e2e.station.url).registerUser('1390033');
    const context = await contextFor(null, { theme: 'black', lang: 'en' });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${e2e.station.url}/login`);
    await settled(page);
    await tabTo(page, 'input[name="phone"]');
    await page.keyboard.type('13900330001');
    await tabTo(page, 'input[name="password"]');
    await page.keyboard.type('pass1234');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/user/);

    await page.goto(`${e2e.station.url}/searchlist`);
    await settled(page);
    await tabTo(page, testId('search-input'));
    await page.keyboard.type(CODE);
    await tabTo(page, `${testId(`search-row-${CODE}`)}, ${testId(`search-row-${CODE}`)} a`);
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/listdetail\\?code=${CODE}`));
    await settled(page);
    await tabTo(page, testId('buy-button'), 120);
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/buy\\?code=${CODE}`));
    await settled(page);

    await tabTo(page, 'input[name="lots"]');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('3');
    // The leverage chips are one radio group: Tab enters it, the arrow keys choose.
    await tabTo(page, `${testId('leverage')} [aria-checked="true"]`);
    await page.keyboard.press('ArrowRight');
    const chosen = await page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    expect(chosen).toMatch(/^leverage-\d+$/);
    expect(await page.locator(testId(chosen!)).getAttribute('aria-checked')).toBe('true');
    const leverage = Number(chosen!.replace('leverage-', ''));
    expect(leverage).toBeGreaterThan(1);

    await tabTo(page, testId('buy-confirm'));
    await page.keyboard.press('Enter');
    const sheet = page.locator(testId('order-confirm-sheet'));
    await sheet.waitFor();
    // Focus is in the sheet and stays there: many Tabs and Shift+Tabs never leave it.
    const inSheet = () =>
      page.evaluate(
        (s) => document.querySelector(s)?.contains(document.activeElement) ?? false,
        testId('order-confirm-sheet'),
      );
    expect(await inSheet()).toBe(true);
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press(i < 15 ? 'Tab' : 'Shift+Tab');
      expect(await inSheet(), `focus after ${i + 1} presses`).toBe(true);
    }
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'buy-confirm',
    );

    await page.keyboard.press('Enter');
    await sheet.waitFor();
    await tabTo(page, testId('order-submit'));
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/warehouse/);
    await settled(page);
    const client = stationClient(e2e.station.url);
    const open = await client.call<{ list: Position[] }>('GET', '/user/position/list.do', session.token, {
      state: 'open',
    });
    expect(open.list).toHaveLength(1);
    expect(open.list[0]).toMatchObject({ code: CODE, lots: 3, leverage });

    await tabTo(page, testId('sell-button'), 120);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/sellStocks/);
    await settled(page);
    await tabTo(page, testId('sell-confirm'));
    await page.keyboard.press('Enter');
    await page.waitForURL(/tab=closed/);
    const after = await client.call<{ list: Position[] }>('GET', '/user/position/list.do', session.token, {
      state: 'open',
    });
    expect(after.list).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('with prefers-reduced-motion: reduce, pages, sheets and toasts change without a transition', async () => {
    const session = await stationClient(e2e.station.url).registerUser('1390034');
    const context = await contextFor(session, { theme: 'red', lang: 'en' });
    const page = await context.newPage();
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const errors = watchPageErrors(page);
    // Every animation or transition that starts anywhere in the page is recorded.
    await page.addInitScript(() => {
      const started: string[] = [];
      (window as unknown as { motions: string[] }).motions = started;
      for (const type of ['animationstart', 'transitionrun']) {
        document.addEventListener(
          type,
          (event) => {
            const target = event.target as Element;
            const name =
              'animationName' in event
                ? (event as AnimationEvent).animationName
                : (event as TransitionEvent).propertyName;
            started.push(`${type} ${name} on ${target.className || target.tagName}`);
          },
          true,
        );
      }
    });
    await page.goto(`${e2e.station.url}/home`);
    await settled(page);
    await page.getByTestId('tab-warehouse').click();
    await page.waitForURL(/\/warehouse/);
    await settled(page);
    await page.goto(`${e2e.station.url}/buy?code=${CODE}`);
    await settled(page);
    await page.getByTestId('buy-confirm').click();
    await page.getByTestId('order-confirm-sheet').waitFor();
    await page.keyboard.press('Escape');
    await page.locator('input[name="lots"]').fill('');
    await page.getByTestId('buy-confirm').click();
    await page.getByTestId('error-lots').waitFor();
    const motions = await page.evaluate(() => (window as unknown as { motions: string[] }).motions);
    // The loading spinner's turn is its only meaning and is kept; nothing else moves.
    expect(motions.filter((m) => !m.includes('spin'))).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('at 200% zoom (195 CSS px wide) the buy form wraps: no control or label is clipped', async () => {
    const session = await stationClient(e2e.station.url).registerUser('1390035');
    // 200% of 390 px: the layout gets half the width, every text twice the size on the screen.
    const context = await contextFor(session, { theme: 'black', lang: 'en' }, {
      width: 195,
      height: 422,
      deviceScaleFactor: 4,
    } as const);
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${e2e.station.url}/buy?code=${CODE}`);
    await settled(page);
    const clipped = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const problems: string[] = [];
      if (document.documentElement.scrollWidth > width + 1) {
        problems.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${width})`);
      }
      const form = document.querySelector('[data-testid="order-form"]')!;
      for (const el of form.querySelectorAll<HTMLElement>(
        'button, input, label, dt, dd, h2, p, .choice-label',
      )) {
        const rect = el.getBoundingClientRect();
        const name = `${el.tagName.toLowerCase()} "${(el.textContent ?? el.getAttribute('name') ?? '').trim().slice(0, 30)}"`;
        if (rect.width === 0) continue;
        if (rect.left < -1 || rect.right > width + 1) problems.push(`${name} outside the screen`);
        if (el.scrollWidth > el.clientWidth + 1 && el.tagName !== 'INPUT') problems.push(`${name} clipped`);
      }
      return problems;
    });
    expect(clipped).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
