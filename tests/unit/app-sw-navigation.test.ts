import { describe, expect, it } from 'vitest';
import { servesAppShell } from '../../src/sw/navigation-denylist';

describe('service worker navigation fallback', () => {
  it.each([
    '/home',
    '/user',
    '/User',
    '/MyList',
    '/listdetail?code=600519',
    '/buy?code=AAPL',
    '/user?lang=en',
  ])('opens the app shell for the app route %s', (path) => expect(servesAppShell(path)).toBe(true));

  it.each([
    '/api/index/ping.do',
    '/user/getUserInfo.do',
    '/user/position/list.do?state=open',
    '/code/checkCode.do',
    '/docs',
    '/docs/json',
    '/sw.js',
    '/icons/icon-192.png',
    '/manifest.webmanifest',
  ])('leaves %s to the network', (path) => expect(servesAppShell(path)).toBe(false));
});
