import { describe, expect, it } from 'vitest';
import { resolveStartLocale } from '../../src/app/i18n/locale';

describe('start language', () => {
  it('takes ?lang= when it names a known locale', () => {
    expect(resolveStartLocale('?lang=en', 'zh-CN')).toBe('en');
    expect(resolveStartLocale('?code=600519&lang=zh-CN', 'en')).toBe('zh-CN');
  });

  it('falls back to the stored choice, then to zh-CN', () => {
    expect(resolveStartLocale('', 'en')).toBe('en');
    expect(resolveStartLocale('', null)).toBe('zh-CN');
  });

  it('ignores languages it does not have rather than guessing', () => {
    expect(resolveStartLocale('?lang=xx', 'en')).toBe('en');
    expect(resolveStartLocale('?lang=EN', undefined)).toBe('zh-CN');
    expect(resolveStartLocale('', 'klingon')).toBe('zh-CN');
  });
});
