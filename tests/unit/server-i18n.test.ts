import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Translator, loadTranslator, parseAcceptLanguage } from '../../server/platform/i18n';

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
