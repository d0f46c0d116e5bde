/**
 * Instrument names in the reader's language (API.md: answers speak the request's `Accept-Language`). Every
 * area's views carry the catalogue's Chinese name beside a code (quotes, positions, orders, the watchlist,
 * boards, block trades, picks), and positions keep the name they were opened with; this plugin swaps each
 * `{code, name}` pair of an answer whose name is that code's Chinese catalogue name for the name in the
 * reader's locale. One place, so no view can forget it, and rows stored before names had languages read
 * in the reader's language too. A `name` that is not the catalogue's (a fund, a user's own) is left alone.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { BASE_LOCALE } from '../platform';

/** The catalogue name of `code` in the locale when `name` is its Chinese name; undefined otherwise. */
export type NameOf = (code: string, name: string) => string | undefined;

/**
 * `value` with every `{code, name}` pair's name given by `nameOf`; copied where something changes, never
 * changed in place (answers may be objects that caches and idempotent replays share).
 */
export function localizeNames<T>(value: T, nameOf: NameOf): T {
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const next = localizeNames(item, nameOf);
      if (next !== item) {
        out ??= value.slice();
        out[i] = next;
      }
    }
    return (out ?? value) as T;
  }
  if (typeof value !== 'object' || value === null || !isPlain(value)) return value;
  const record = value as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  for (const key of Object.keys(record)) {
    const item = record[key];
    if (typeof item !== 'object' || item === null) continue;
    const next = localizeNames(item, nameOf);
    if (next !== item) {
      out ??= { ...record };
      out[key] = next;
    }
  }
  if (typeof record.code === 'string' && typeof record.name === 'string') {
    const name = nameOf(record.code, record.name);
    if (name !== undefined && name !== record.name) {
      out ??= { ...record };
      out.name = name;
    }
  }
  return (out ?? record) as T;
}

function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** A source of names beside the market's catalogue (the funds', say): the name of `code` in `locale`. */
export type LocalNameSource = (code: string, name: string, locale: string) => string | undefined;

export interface LocalizedNamesOptions {
  /** Named things of other areas, handed in by the station's root so the market imports no other area. */
  otherNames?: readonly LocalNameSource[];
}

async function localizedNamesFn(app: FastifyInstance, options: LocalizedNamesOptions): Promise<void> {
  const others = options.otherNames ?? [];
  const nameIn = (code: string, name: string, locale: string): string | undefined => {
    const instrument = app.market.localName(code, name, locale);
    if (instrument !== undefined) return instrument;
    for (const source of others) {
      const found = source(code, name, locale);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  // A plain callback, not an async function: it runs on every answer, and an async hook costs Fastify a
  // promise and a microtask turn each time (as field-checks.ts).
  app.addHook('preSerialization', (request, _reply, payload: unknown, done) => {
    const locale = app.i18n.resolve(request.headers['accept-language']);
    if (locale === BASE_LOCALE) {
      done(null, payload);
      return;
    }
    let localized: unknown;
    try {
      localized = localizeNames(payload, (code, name) => nameIn(code, name, locale));
    } catch (error) {
      done(error as Error);
      return;
    }
    done(null, localized);
  });
}

/** Registered once, before the routes, so every answer of the station passes through it. */
export const localizedNamesPlugin = fp(localizedNamesFn, { name: 'localized-names' });
