/**
 * Server-side messages in the request's language, from the app's own locale files (locales/<tag>/index.ts,
 * sections `errors` and `validation`). New locale folders are picked up at start without code changes.
 */
import { readdirSync, existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

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
}

export interface Messages {
  locale: string;
  error(key: string, params?: Record<string, string | number>): string;
  validation(key: string, params?: Record<string, string | number>): string;
}

function substitute(text: string, params?: Record<string, string | number>): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole,
  );
}

function isSection(value: unknown): value is Section {
  return (
    typeof value === 'object' && value !== null && Object.values(value).every((v) => typeof v === 'string')
  );
}

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

  /** The best available locale for an Accept-Language header (base locale when nothing fits). */
  resolve(acceptLanguage: string | undefined): string {
    const wanted = parseAcceptLanguage(acceptLanguage ?? '');
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
    return {
      locale,
      error: (key, params) =>
        substitute(own.errors[key] ?? base.errors[key] ?? base.errors.INTERNAL ?? key, params),
      validation: (key, params) =>
        substitute(own.validation[key] ?? base.validation[key] ?? base.validation.invalid ?? key, params),
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

/** Imports every locales/<tag>/index.ts (or .js) and keeps its `errors` and `validation` sections. */
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
    found[entry.name] = { errors, validation };
  }
  return new Translator(found);
}
