/**
 * A station replaying imported history (MARKET_SOURCE=replay), in Chromium at 390×844: the notice names the
 * replayed day wherever it says "test station", in each language, and the stock's K-line is the imported
 * bars. The history is imported into the station's database first, as the operator does, then the replay
 * station starts on it; the wall clock under the replay is pinned, so the replayed time stands at the open.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { FixedClock } from '../../server/market/clock';
import { runOperatorCommand } from '../../server/cli/commands';
import { importHistory } from '../../server/market';
import { aaplDayBars, REPLAY_FROM, replayHistoryCsv, ZZZZ_NAME } from '../fixtures/replay-history';
import {
  launchPhoneBrowser,
  newPhoneContext,
  startE2eStation,
  watchPageErrors,
  type E2eStation,
} from './harness';

const dataDir = mkdtempSync(join(tmpdir(), 'paperdesk-e2e-replay-'));
let station: E2eStation;
let browser: Browser;
const wall = new FixedClock(Date.UTC(2026, 10, 28, 12, 0, 0));

beforeAll(async () => {
  const importer = await startE2eStation({}, { dataDir });
  const result = await importHistory(
    importer.app.station,
    [{ file: 'history.csv', text: replayHistoryCsv() }],
    new Map([['ZZZZ', ZZZZ_NAME]]),
  );
  await importer.close();
  expect(result).toMatchObject({ imported: true });
  station = await startE2eStation(
    { CLOCK_MODE: 'real', MARKET_SOURCE: 'replay', REPLAY_FROM, REPLAY_SPEED: '600' },
    { dataDir, clock: wall },
  );
  browser = await launchPhoneBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await station?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a replay of real history in Chromium at 390×844', () => {
  it('names the replayed day in the test-station notice, in every language', async () => {
    const context = await newPhoneContext(browser);
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    const notice = page.getByTestId('test-station-notice');
    const expected = {
      en: 'Technical test station, replay of 2015-07-08: no real trading, all money is play money',
      'zh-CN': '技术测试站，正在回放 2015-07-08 的历史行情',
      'zh-TW': '技術測試站，正在回放 2015-07-08 的歷史行情',
      th: '2015-07-08',
      vi: 'phát lại giá lịch sử ngày 2015-07-08',
    };
    for (const [lang, text] of Object.entries(expected)) {
      await page.goto(`${station.url}/home?lang=${lang}`);
      await expect.poll(() => notice.innerText(), { timeout: 20_000 }).toContain(text);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('draws the imported day bars on the K-line of the stock replayed', async () => {
    const context = await newPhoneContext(browser);
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${station.url}/listdetail?code=AAPL&lang=en`);
    await page.getByTestId('detail-price').waitFor();
    // At the replayed open AAPL is at its first imported minute's open.
    await expect
      .poll(() => page.getByTestId('detail-price').innerText(), { timeout: 20_000 })
      .toContain('125.00');
    await page
      .locator(
        '[data-testid="kline-canvas"][data-ready="true"][data-period="day"][data-bars]:not([data-bars="0"])',
      )
      .first()
      .waitFor({ timeout: 60_000 });
    await page.getByTestId('kline-table-toggle').click();
    const rows = page.locator('[data-testid="kline-table"] tbody tr');
    await rows.first().waitFor();
    // Newest first: the replayed day so far, then the imported days, each as imported.
    const imported = aaplDayBars().reverse();
    const shown = async (i: number) =>
      (await rows.nth(i).locator('td').allInnerTexts())
        .slice(0, 4)
        .map((text) => Number(text.replace(/,/g, '')));
    expect((await shown(0))[0]).toBe(125);
    for (let i = 0; i < 5; i++) {
      const bar = imported[i]!;
      expect(await shown(i + 1), bar.date).toEqual([bar.open, bar.high, bar.low, bar.close]);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says when the operator has paused the replay', async () => {
    const context = await newPhoneContext(browser);
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    const lines: string[] = [];
    // The operator's command line on the station's database, at the wall clock the replay runs against.
    await runOperatorCommand(
      { ...station.app.station, clock: wall },
      'replay',
      ['pause', '--reason', 'a lesson on the open'],
      (line) => lines.push(line),
      'teacher',
    );
    expect(lines.join('\n')).toContain('paused at 2015-07-08 13:30:00 UTC');
    const notice = page.getByTestId('test-station-notice');
    // The station reads the stored clock each second; each visit asks it again, once the app has taken over.
    await expect
      .poll(
        async () => {
          await page.goto(`${station.url}/home?lang=en`);
          await page.waitForFunction(
            () =>
              document
                .querySelector('[data-testid="test-station-notice"]')
                ?.textContent?.includes('replay of'),
            undefined,
            { timeout: 10_000 },
          );
          return notice.innerText();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toContain('Technical test station, replay of 2015-07-08 (paused)');
    expect(errors).toEqual([]);
    await context.close();
  });
});
