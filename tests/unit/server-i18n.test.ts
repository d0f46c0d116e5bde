import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Translator,
  fillTemplate,
  loadTranslator,
  parseAcceptLanguage,
  parseStationText,
  stationText,
} from '../../server/platform/i18n';

const section = (tag: string) => ({
  errors: { NOT_LOGGED_IN: `login(${tag})`, INTERNAL: `internal(${tag})`, GREETING: `hello {name} (${tag})` },
  validation: { invalid: `invalid(${tag})` },
});

describe('message language', () => {
  it('reads Accept-Language by quality', () => {
    expect(parseAcceptLanguage('en-US,en;q=0.9,zh-CN;q=0.8')).toEqual(['en-us', 'en', 'zh-cn']);
    expect(parseAcceptLanguage('zh-CN;q=0.2, th')).toEqual(['th', 'zh-cn']);
    expect(parseAcceptLanguage('*, en;q=0')).toEqual([]);
    expect(parseAcceptLanguage('')).toEqual([]);
  });

  it('falls back to the closest locale that exists when a language has no folder', () => {
    const t = new Translator({ 'zh-CN': section('zh-CN'), en: section('en') });
    expect(t.resolve(undefined)).toBe('zh-CN');
    expect(t.resolve('en-GB')).toBe('en');
    expect(t.resolve('zh-TW')).toBe('zh-CN');
    expect(t.resolve('zh-HK')).toBe('zh-CN');
    expect(t.resolve('th')).toBe('en');
    expect(t.resolve('vi-VN')).toBe('en');
    expect(t.resolve('fr')).toBe('zh-CN');
    expect(t.resolve('th, zh-CN;q=0.5')).toBe('zh-CN');
    const withTw = new Translator({
      'zh-CN': section('zh-CN'),
      en: section('en'),
      'zh-TW': section('zh-TW'),
    });
    expect(withTw.resolve('zh-HK')).toBe('zh-TW');
    expect(withTw.resolve('zh-tw')).toBe('zh-TW');
  });

  it('substitutes {params} and falls back to the base locale for missing keys', () => {
    const en = section('en');
    delete (en.errors as Record<string, string>).NOT_LOGGED_IN;
    const t = new Translator({ 'zh-CN': section('zh-CN'), en });
    const m = t.messages('en');
    expect(m.error('GREETING', { name: 'Li' })).toBe('hello Li (en)');
    expect(m.error('NOT_LOGGED_IN')).toBe('login(zh-CN)');
    expect(m.error('NO_SUCH_KEY')).toBe('internal(zh-CN)');
  });

  it("loads the project's locales and picks up new locale folders without code changes", async () => {
    const real = await loadTranslator();
    expect(real.locales).toEqual(expect.arrayContaining(['zh-CN', 'en']));
    expect(real.messages('en').error('NOT_LOGGED_IN')).toBe('Please log in first');
    expect(real.messages('zh-CN').validation('phoneEmpty')).toBe('手机号不能为空');
    // The five languages of spec §1 each answer in their own words, not through a fallback.
    expect(real.locales).toEqual(expect.arrayContaining(['zh-CN', 'en', 'zh-TW', 'th', 'vi']));
    expect(real.resolve('zh-TW')).toBe('zh-TW');
    expect(real.resolve('zh-HK')).toBe('zh-TW');
    expect(real.resolve('th-TH')).toBe('th');
    expect(real.resolve('vi-VN,vi;q=0.9')).toBe('vi');
    expect(real.messages('zh-TW').error('NOT_LOGGED_IN')).toBe('請先登入');
    expect(real.messages('th').error('NOT_LOGGED_IN')).toBe('โปรดเข้าสู่ระบบก่อน');
    expect(real.messages('vi').validation('phoneEmpty')).toBe('Số điện thoại không được để trống');

    const dir = mkdtempSync(path.join(tmpdir(), 'paperdesk-locales-'));
    try {
      for (const tag of ['zh-CN', 'vi']) {
        mkdirSync(path.join(dir, tag));
        writeFileSync(path.join(dir, tag, 'index.ts'), `export default ${JSON.stringify(section(tag))};\n`);
      }
      const loaded = await loadTranslator(dir);
      expect(loaded.locales.sort()).toEqual(['vi', 'zh-CN']);
      expect(loaded.messages('vi').error('NOT_LOGGED_IN')).toBe('login(vi)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('station templates', () => {
  it('chooses plural forms by the number before them, with each locale rules', () => {
    expect(fillTemplate('{n} lot{{s}}', { n: 1 }, 'en')).toBe('1 lot');
    expect(fillTemplate('{n} lot{{s}}', { n: 2 }, 'en')).toBe('2 lots');
    expect(fillTemplate('{n} {{contract|contracts}}', { n: 1 }, 'en')).toBe('1 contract');
    expect(fillTemplate('{n} {{contract|contracts}}', { n: 0 }, 'en')).toBe('0 contracts');
    // A unit's own template takes its count from outside.
    expect(fillTemplate('share{{s}}', undefined, 'en', undefined, 1)).toBe('share');
    expect(fillTemplate('share{{s}}', undefined, 'en', undefined, 5)).toBe('shares');
  });

  it('shows stored amounts with the locale separators and leaves other values as they are', () => {
    expect(fillTemplate('配资{a}', { a: '30000.00' }, 'zh-CN')).toBe('配资30,000.00');
    expect(fillTemplate('{a}', { a: '-1234567.50' }, 'en')).toBe('-1,234,567.50');
    expect(fillTemplate('{o} {p}', { o: 'R20250312001', p: 1450.5 }, 'en')).toBe('R20250312001 1450.5');
  });

  it('stores station texts as keys with parameters and reads them back', () => {
    const stored = stationText('noteTransferTo', { account: 'hk' });
    expect(stored).toBe('@noteTransferTo {"account":"hk"}');
    expect(parseStationText(stored)).toEqual({ key: 'noteTransferTo', params: { account: 'hk' } });
    expect(parseStationText('@noteOpeningBalance')).toEqual({ key: 'noteOpeningBalance', params: {} });
    expect(parseStationText('paper starting balance')).toBeNull();
    expect(parseStationText('@x {not json')).toBeNull();
  });

  it('renders a station text in each project locale, a parameter by its own key where there is one', async () => {
    const t = await loadTranslator();
    const stored = stationText('noteTransferTo', { account: 'index' });
    expect(t.messages('en').stored(stored)).toBe('To the index account');
    expect(t.messages('zh-CN').stored(stored)).toBe('转至指数账户');
    expect(t.messages('th').stored('@bannerPlayMoney')).toBe('ฝึกเทรดด้วยเงินจำลอง');
    expect(t.messages('vi').stored('an operator text')).toBe('an operator text');
    expect(t.messages('en').text('noteAllocationTerms', { multiple: 5, days: 1 })).toBe('×5, 1 day');
  });
});
