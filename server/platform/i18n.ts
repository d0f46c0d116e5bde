/**
 * Server-side messages in the request's language, from the app's own locale files (locales/<tag>/index.ts,
 * sections `errors` and `validation`). New locale folders are picked up at start without code changes.
 */
import { readdirSync, existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { formatMoney } from '../../src/shared/format';

export const BASE_LOCALE = 'zh-CN';

/** Where a language without its own folder yet borrows messages from, nearest first. */
const FALLBACKS: Record<string, string[]> = {
  'zh-tw': ['zh-CN'],
  'zh-hk': ['zh-TW', 'zh-CN'],
  'zh-mo': ['zh-TW', 'zh-CN'],
  'zh-hant': ['zh-TW', 'zh-CN'],
  'zh-hans': ['zh-CN'],
  zh: ['zh-CN'],
  th: ['en'],
  vi: ['en'],
};

type Section = Record<string, string>;

export interface LocaleMessages {
  errors: Section;
  validation: Section;
  /** The station's own texts (banners, pay channels, fund-flow notes), flattened: `account.main`. */
  stationTexts?: Section;
}

export type TextParams = Record<string, string | number>;

export interface Messages {
  locale: string;
  error(key: string, params?: TextParams): string;
  validation(key: string, params?: TextParams): string;
  /** A key of `stationTexts` with its parameters; a parameter `p` of value `v` shows `p.v` where that is a key. */
  text(key: string, params?: TextParams): string;
  /** A stored station text (stationText) in this language; any other stored value as it is. */
  stored(value: string): string;
}

/**
 * Fills `{name}` parameters and typesafe-i18n's plural parts, `{{one|other}}` or `{{s}}` (the plural's
 * suffix), chosen by the number before them, with the locale's plural rules (Thai, Vietnamese and Chinese
 * have one form). `shown` turns a parameter into its text.
 */
export function fillTemplate(
  text: string,
  params: TextParams | undefined,
  locale: string,
  shown: (name: string, value: string | number) => string = (_name, value) => amountIn(value, locale),
  count: number | null = null,
): string {
  const rules = pluralRules(locale);
  // A plural part follows the number before it; `count` stands before the text (a unit's own template).
  let last: number | null = count;
  return text.replace(
    /\{\{([^{}]*)\}\}|\{(\w+)\}/g,
    (whole, plural: string | undefined, name: string | undefined) => {
      if (plural !== undefined) {
        const forms = plural.split('|');
        const [one, other] = forms.length === 1 ? ['', forms[0]!] : [forms[0]!, forms[forms.length - 1]!];
        return last !== null && rules.select(last) === 'one' ? one : other;
      }
      if (!params || !Object.prototype.hasOwnProperty.call(params, name!)) return whole;
      const value = params[name!]!;
      last = typeof value === 'number' ? value : Number.isFinite(Number(value)) ? Number(value) : last;
      return shown(name!, value);
    },
  );
}

/**
 * A parameter as shown: an amount stored as text with two decimals (moneyText, "30000.00") with the locale's
 * separators ("30,000.00"); anything else as it is.
 */
export function amountIn(value: string | number, locale: string): string {
  return typeof value === 'string' && /^-?\d+\.\d\d$/.test(value)
    ? formatMoney(Number(value), locale)
    : String(value);
}

const pluralRulesByLocale = new Map<string, Intl.PluralRules>();
function pluralRules(locale: string): Intl.PluralRules {
  let rules = pluralRulesByLocale.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRulesByLocale.set(locale, rules);
  }
  return rules;
}

/**
 * A text the station stores for readers it does not know yet (a fund-flow note, a pay channel's name): a key
 * of the locales' `stationTexts` section and its parameters, as `@key` or `@key {json}`, shown in each
 * reader's language (Messages.stored).
 */
export function stationText(key: string, params?: TextParams): string {
  return params && Object.keys(params).length > 0 ? `@${key} ${JSON.stringify(params)}` : `@${key}`;
}

/** The key and parameters of a stored station text, or null for any other value. */
export function parseStationText(value: string | null): { key: string; params: TextParams } | null {
  const m = /^@([A-Za-z][\w.]*)(?: (\{.*\}))?$/s.exec(value ?? '');
  if (!m) return null;
  if (m[2] === undefined) return { key: m[1]!, params: {} };
  try {
    const params = JSON.parse(m[2]) as unknown;
    if (typeof params !== 'object' || params === null || Array.isArray(params)) return null;
    return { key: m[1]!, params: params as TextParams };
  } catch {
    return null;
  }
}

/** A nested section flattened to `a.b` keys; null when anything but text is inside. */
function flatSection(value: unknown, prefix = '', out: Section = {}): Section | null {
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string') out[`${prefix}${key}`] = item;
    else if (flatSection(item, `${prefix}${key}.`, out) === null) return null;
  }
  return out;
}

function isSection(value: unknown): value is Section {
  return (
    typeof value === 'object' && value !== null && Object.values(value).every((v) => typeof v === 'string')
  );
}

/** Accept-Language headers whose locale a translator remembers at most. */
const RESOLVED_KEPT = 512;

export class Translator {
  /** Locale tag (as the folder is named) → messages. */
  private readonly byTag = new Map<string, LocaleMessages>();
  private readonly lowerToTag = new Map<string, string>();

  constructor(locales: Record<string, LocaleMessages>) {
    for (const [tag, messages] of Object.entries(locales)) {
      this.byTag.set(tag, messages);
      this.lowerToTag.set(tag.toLowerCase(), tag);
    }
    if (!this.byTag.has(BASE_LOCALE)) throw new Error(`locales: the base locale ${BASE_LOCALE} is missing`);
  }

  get locales(): string[] {
    return [...this.byTag.keys()];
  }

  /**
   * Locales already worked out, by Accept-Language header: every answer resolves its reader's language
   * (localized-names.ts), and parsing the header each time showed in a trivial call's profile. Browsers send
   * a handful of distinct headers; past RESOLVED_KEPT the map starts afresh, so odd headers cannot grow it.
   */
  private readonly resolved = new Map<string, string>();

  /** The best available locale for an Accept-Language header (base locale when nothing fits). */
  resolve(acceptLanguage: string | undefined): string {
    const header = acceptLanguage ?? '';
    let locale = this.resolved.get(header);
    if (locale === undefined) {
      locale = this.resolveUncached(header);
      if (this.resolved.size >= RESOLVED_KEPT) this.resolved.clear();
      if (header.length <= 256) this.resolved.set(header, locale);
    }
    return locale;
  }

  private resolveUncached(acceptLanguage: string): string {
    const wanted = parseAcceptLanguage(acceptLanguage);
    // First what the client asked for (or its primary language), then the nearest stand-ins.
    for (const tag of wanted) {
      const exact = this.lowerToTag.get(tag);
      if (exact) return exact;
      const primary = tag.split('-')[0] ?? '';
      // zh-TW must not land on zh-CN through the bare "zh" prefix: its fallbacks decide.
      const byPrimary = primary === 'zh' ? undefined : this.lowerToTag.get(primary);
      if (byPrimary) return byPrimary;
    }
    for (const tag of wanted) {
      const primary = tag.split('-')[0] ?? '';
      for (const fallback of FALLBACKS[tag] ?? FALLBACKS[primary] ?? []) {
        const found = this.lowerToTag.get(fallback.toLowerCase());
        if (found) return found;
      }
    }
    return BASE_LOCALE;
  }

  messages(acceptLanguage: string | undefined): Messages {
    const locale = this.resolve(acceptLanguage);
    const own = this.byTag.get(locale)!;
    const base = this.byTag.get(BASE_LOCALE)!;
    const station = (key: string): string | undefined => own.stationTexts?.[key] ?? base.stationTexts?.[key];
    const text = (key: string, params?: TextParams): string =>
      fillTemplate(
        station(key) ?? key,
        params,
        locale,
        (name, value) => station(`${name}.${value}`) ?? amountIn(value, locale),
      );
    return {
      locale,
      error: (key, params) =>
        fillTemplate(own.errors[key] ?? base.errors[key] ?? base.errors.INTERNAL ?? key, params, locale),
      validation: (key, params) =>
        fillTemplate(
          own.validation[key] ?? base.validation[key] ?? base.validation.invalid ?? key,
          params,
          locale,
        ),
      text,
      stored: (value) => {
        const parsed = parseStationText(value);
        return parsed ? text(parsed.key, parsed.params) : value;
      },
    };
  }
}

/** Language tags of an Accept-Language header, lower-cased, best first (q=0 dropped). */
export function parseAcceptLanguage(header: string): string[] {
  return header
    .slice(0, 512)
    .split(',')
    .map((part, index) => {
      const [tagRaw = '', ...paramsRaw] = part.trim().split(';');
      const qParam = paramsRaw.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const q = qParam ? Number(qParam.slice(2)) : 1;
      return { tag: tagRaw.trim().toLowerCase(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((x) => /^[a-z]{1,8}(-[a-z0-9]{1,8})*$/.test(x.tag) && x.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((x) => x.tag);
}

export const DEFAULT_LOCALES_DIR = fileURLToPath(new URL('../../locales/', import.meta.url));

/** Imports every locales/<tag>/index.ts (or .js) and keeps its `errors`, `validation` and `stationTexts`. */
export async function loadTranslator(localesDir: string = DEFAULT_LOCALES_DIR): Promise<Translator> {
  const found: Record<string, LocaleMessages> = {};
  for (const entry of readdirSync(localesDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const file = ['index.ts', 'index.js'].map((f) => path.join(localesDir, entry.name, f)).find(existsSync);
    if (!file) continue;
    const mod = (await import(pathToFileURL(file).href)) as { default?: Record<string, unknown> };
    const errors = mod.default?.errors;
    const validation = mod.default?.validation;
    if (!isSection(errors) || !isSection(validation)) {
      throw new Error(`locales/${entry.name}: the default export needs "errors" and "validation" sections`);
    }
    const stationTexts = flatSection(mod.default?.stationTexts ?? {});
    if (!stationTexts) throw new Error(`locales/${entry.name}: "stationTexts" holds only texts`);
    found[entry.name] = { errors, validation, stationTexts };
  }
  return new Translator(found);
}
