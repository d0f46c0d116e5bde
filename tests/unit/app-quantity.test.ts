/** Quantities as each market counts them, with each language's plural forms (src/app/i18n/quantity.ts). */
import { beforeAll, describe, expect, it } from 'vitest';
import { i18nObject } from '../../locales/i18n-util';
import { loadAllLocales } from '../../locales/i18n-util.sync';
import { quantityCount, quantityLabel, quantityText } from '../../src/app/i18n/quantity';

describe('quantities', () => {
  beforeAll(() => loadAllLocales());

  it('counts A-shares and HK stocks in lots, US stocks in shares, indexes and futures in contracts', () => {
    const en = i18nObject('en');
    expect(quantityText(en, 'a', 1, 100)).toBe('1 lot (100 shares)');
    expect(quantityText(en, 'hk', 2, 200)).toBe('2 lots (200 shares)');
    expect(quantityText(en, 'us', 1, 1)).toBe('1 share');
    expect(quantityText(en, 'us', 30, 30)).toBe('30 shares');
    expect(quantityText(en, 'futures', 1, 1000)).toBe('1 contract');
    expect(quantityText(en, 'index', 3, 3)).toBe('3 contracts');
    expect([quantityLabel(en, 'star'), quantityLabel(en, 'us'), quantityLabel(en, 'index')]).toEqual([
      'Lots',
      'Shares',
      'Contracts',
    ]);
  });

  it('says the same in the other languages, which have one form', () => {
    expect(quantityText(i18nObject('zh-CN'), 'a', 1, 100)).toBe('1手（100股）');
    expect(quantityText(i18nObject('zh-TW'), 'futures', 2, 2)).toBe('2口');
    expect(quantityText(i18nObject('th'), 'us', 1, 1)).toBe('1 หุ้น');
    expect(quantityText(i18nObject('vi'), 'index', 1, 1)).toBe('1 hợp đồng');
  });

  it('writes English counts of one in the singular', () => {
    const en = i18nObject('en');
    expect(en.dzvip.lotsValue({ lots: 1 })).toBe('1 lot');
    expect(en.dzvip.sharesValue({ shares: 1 })).toBe('1 share');
    expect(en.newshares.winnersCount({ count: 1, lots: 2 })).toBe(
      '1 winning number (2 lots in the online draw)',
    );
  });

  it('counts a limit order in its market’s unit when revoking it', () => {
    const en = i18nObject('en');
    expect(quantityCount(en, 'us', 1)).toBe('1 share');
    expect(quantityCount(en, 'a', 3)).toBe('3 lots');
    expect(quantityCount(en, 'futures', 2)).toBe('2 contracts');
    expect(
      en.trading.revokeText({ name: 'Apple Inc.', code: 'AAPL', quantity: quantityCount(en, 'us', 5) }),
    ).toBe('Revoke the limit order for 5 shares of Apple Inc. (AAPL)? The frozen funds return to available.');
    expect(quantityCount(i18nObject('zh-CN'), 'hk', 2)).toBe('2手');
    expect(quantityCount(i18nObject('vi'), 'us', 4)).toBe('4 cổ phiếu');
  });
});
