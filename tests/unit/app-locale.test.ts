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

import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { locales as generatedLocales } from '../../locales/i18n-util';

const LOCALES_DIR = path.resolve(import.meta.dirname, '../../locales');
/** spec §1: the five languages. */
const FIVE = ['zh-CN', 'en', 'zh-TW', 'th', 'vi'];

type Dict = { [key: string]: string | Dict };

/** Every leaf as "section.key" → text. */
function flatten(dict: Dict, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(dict)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(name, value);
    else for (const [k, v] of flatten(value, name)) out.set(k, v);
  }
  return out;
}

/** The parameter names of a text: `{name}` or `{name:type}`, sorted. */
const paramsOf = (text: string) =>
  [...text.replace(/\{\{[^}]*\}\}/g, '').matchAll(/\{(\w+)(?::\w+)?\}/g)]
    .map((m) => m[1])
    .sort((a, b) => a!.localeCompare(b!));

const folders = readdirSync(LOCALES_DIR).filter((name) =>
  statSync(path.join(LOCALES_DIR, name)).isDirectory(),
);
const dictionaries = new Map<string, Map<string, string>>();

describe('every locale has every key', () => {
  it('has a folder for each of the five languages, and typesafe-i18n knows them all', async () => {
    expect(folders).toEqual(expect.arrayContaining(FIVE));
    expect([...generatedLocales].sort()).toEqual([...folders].sort());
    for (const folder of folders) {
      const mod = (await import(path.join(LOCALES_DIR, folder, 'index.ts'))) as { default: Dict };
      dictionaries.set(folder, flatten(mod.default));
    }
  });

  it('finds no key missing, extra or empty in any locale, against zh-CN', () => {
    const base = dictionaries.get('zh-CN')!;
    expect(base.size).toBeGreaterThan(100);
    for (const [locale, dict] of dictionaries) {
      const missing = [...base.keys()].filter((key) => !dict.has(key));
      const extra = [...dict.keys()].filter((key) => !base.has(key));
      const empty = [...dict].filter(([, text]) => text.trim() === '').map(([key]) => key);
      expect({ locale, missing, extra, empty }).toEqual({ locale, missing: [], extra: [], empty: [] });
    }
  });

  it('uses the same parameters as zh-CN in every text', () => {
    const base = dictionaries.get('zh-CN')!;
    for (const [locale, dict] of dictionaries) {
      for (const [key, text] of base) {
        expect(paramsOf(dict.get(key) ?? ''), `${locale} ${key}`).toEqual(paramsOf(text));
      }
    }
  });

  it('leaves no English sentence in zh-CN, zh-TW, th or vi', () => {
    const en = dictionaries.get('en')!;
    // Names and symbols that are the same in every language (the app's name, T+1, indicator acronyms), and
    // texts made only of placeholders and brackets ("{direction} {change} ({pct})").
    const sameEverywhere = /^(PaperDesk|English|(?:[A-Z][A-Z0-9+]{1,5}|\{\w+(?::\w+)?\}|[\s()])+)$/;
    for (const locale of ['zh-CN', 'zh-TW', 'th', 'vi']) {
      const dict = dictionaries.get(locale)!;
      const copied = [...dict]
        .filter(([key, text]) => text === en.get(key) && !sameEverywhere.test(text))
        .filter(([key]) => !key.startsWith('language.'))
        .map(([key]) => key);
      expect({ locale, copied }).toEqual({ locale, copied: [] });
      // Latin words of three letters or more (outside {params}) would be English left behind in zh/th.
      if (locale !== 'vi') {
        const latin = [...dict]
          .filter(([key]) => !key.startsWith('language.'))
          .filter(([, text]) =>
            /[A-Za-z]{3,}/.test(
              text.replace(/\{[^}]*\}/g, '').replace(/PaperDesk|WebP|\b[A-Z][A-Z0-9]{1,5}\b/g, ''),
            ),
          )
          .map(([key, text]) => `${key}: ${text}`);
        expect({ locale, latin }).toEqual({ locale, latin: [] });
      }
    }
  });
});
