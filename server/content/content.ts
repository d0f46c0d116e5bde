/**
 * The reading side (spec §1 news and notices, financial college; §7 "Site"): news, notices,
 * college articles and site pages, stored as Markdown, one row per item and language. The station stores
 * and answers Markdown as written and renders nothing; the app renders it sanitised.
 *
 * Starter content lives in data files (server/content/data/*.md) and is seeded on start: an item missing from
 * the database is inserted, an existing one (perhaps edited or hidden by the operator) is left alone.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { Selectable } from 'kysely';
import {
  ART_CATEGORIES,
  contentFallbacks,
  isContentLang,
  NEWS_TYPES,
  NOTICE_LEVELS,
  PAGE_KEYS,
  type ContentLang,
} from '../../src/shared/content';
import type { Page } from '../../src/shared/api/types';
import { AppError, type ContentItemsTable, type ContentKind, type Station } from '../platform';
import { audit } from '../ledger';

export const CONTENT_DIR = fileURLToPath(new URL('./data/', import.meta.url));

export type ContentRow = Selectable<ContentItemsTable>;

/** One item of a data file, before it has an id. */
export interface SeedItem {
  kind: ContentKind;
  slug: string;
  lang: ContentLang;
  category: string;
  title: string;
  summary: string;
  body: string;
  source: string;
  publishedAt: number;
  sortOrder: number;
}

/** Data file name prefix → kind: news.zh-CN.md, notices.en.md, college.en.md, pages.th.md. */
const FILE_KINDS: Record<string, ContentKind> = {
  news: 'news',
  notices: 'notice',
  college: 'article',
  pages: 'page',
};

/** The categories each kind accepts: a data file with another is refused at start, not served. */
const CATEGORIES: Record<ContentKind, readonly string[]> = {
  news: NEWS_TYPES,
  notice: NOTICE_LEVELS,
  article: ART_CATEGORIES,
  page: PAGE_KEYS,
};

export const LIMITS = { title: 200, summary: 500, body: 100_000, source: 100, slug: 100 } as const;

/** Dates in the data files are Beijing time (UTC+8): "2026-11-20 09:30". */
function parseBeijingTime(text: string, where: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}))?$/.exec(text.trim());
  if (!m) throw new Error(`${where}: date "${text}" is not YYYY-MM-DD[ HH:MM]`);
  const [, y, mo, d, h = '00', mi = '00'] = m;
  return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h) - 8, Number(mi));
}

/**
 * Parses one data file: items, each a header between two `+++` lines (`key: value` per line) followed by
 * its Markdown body up to the next `+++`.
 */
export function parseContentFile(
  text: string,
  kind: ContentKind,
  lang: ContentLang,
  file: string,
): SeedItem[] {
  const items: SeedItem[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let i = 0;
  while (i < lines.length && lines[i]!.trim() === '') i++;
  while (i < lines.length) {
    if (lines[i] !== '+++') throw new Error(`${file}:${i + 1}: expected "+++" to start an item`);
    const header: Record<string, string> = {};
    i++;
    while (i < lines.length && lines[i] !== '+++') {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      if (colon < 1) throw new Error(`${file}:${i + 1}: expected "key: value"`);
      header[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
      i++;
    }
    if (i >= lines.length) throw new Error(`${file}: an item's header is not closed with "+++"`);
    i++;
    const body: string[] = [];
    while (i < lines.length && lines[i] !== '+++') body.push(lines[i++]!);
    const where = `${file} (${header.slug ?? 'no slug'})`;
    const slug = header.slug ?? '';
    if (!/^[a-z0-9-]{1,100}$/.test(slug)) throw new Error(`${where}: slug must be a-z, 0-9 and -`);
    const category = header.category ?? (kind === 'page' ? slug : '');
    if (!CATEGORIES[kind].includes(category)) throw new Error(`${where}: unknown category "${category}"`);
    const title = header.title ?? '';
    if (title === '' || title.length > LIMITS.title) throw new Error(`${where}: title missing or too long`);
    const summary = header.summary ?? '';
    if (summary.length > LIMITS.summary) throw new Error(`${where}: summary too long`);
    items.push({
      kind,
      slug,
      lang,
      category,
      title,
      summary,
      body: body.join('\n').trim(),
      source: header.source ?? 'PaperDesk',
      publishedAt: parseBeijingTime(header.date ?? '2026-11-01', where),
      sortOrder: items.length,
    });
  }
  return items;
}

/** Every item of the data files in `dir` (default: server/content). */
export function loadSeedContent(dir: string = CONTENT_DIR): SeedItem[] {
  const items: SeedItem[] = [];
  for (const file of readdirSync(dir).sort()) {
    const m = /^([a-z]+)\.([A-Za-z-]+)\.md$/.exec(file);
    if (!m) continue;
    const kind = FILE_KINDS[m[1]!];
    const lang = m[2]!;
    if (!kind || !isContentLang(lang)) throw new Error(`content/${file}: not <kind>.<lang>.md`);
    items.push(...parseContentFile(readFileSync(path.join(dir, file), 'utf8'), kind, lang, file));
  }
  return items;
}

let cachedSeed: SeedItem[] | null = null;

/**
 * Inserts the starter items the database does not have yet (by kind, slug and language). Idempotent:
 * edited or hidden items are left as the operator left them.
 */
export async function seedContent(station: Station, items?: SeedItem[]): Promise<number> {
  const seed = items ?? (cachedSeed ??= loadSeedContent());
  const db = station.db;
  const existing = await db.selectFrom('content_items').select(['kind', 'slug', 'lang']).execute();
  const have = new Set(existing.map((r) => `${r.kind}/${r.slug}/${r.lang}`));
  const missing = seed.filter((s) => !have.has(`${s.kind}/${s.slug}/${s.lang}`));
  if (missing.length === 0) return 0;
  const now = station.clock.now();
  await db.transaction().execute(async (trx) => {
    // Batches keep each statement under SQLite's and PostgreSQL's parameter limits.
    for (let start = 0; start < missing.length; start += 50) {
      await trx
        .insertInto('content_items')
        .values(
          missing.slice(start, start + 50).map((s) => ({
            kind: s.kind,
            slug: s.slug,
            lang: s.lang,
            category: s.category,
            title: s.title,
            summary: s.summary,
            body: s.body,
            source: s.source,
            published_at: s.publishedAt,
            sort_order: s.sortOrder,
            hidden: 0,
            created_at: now,
            updated_at: now,
          })),
        )
        // Two stations starting on one PostgreSQL database seed at once: the second one's rows are skipped.
        .onConflict((oc) => oc.columns(['kind', 'slug', 'lang']).doNothing())
        .execute();
    }
  });
  return missing.length;
}

type ListedRow = Omit<ContentRow, 'body' | 'created_at' | 'hidden'>;

/**
 * Visible items of a kind for a reader of `lang`: per slug the version in the nearest language (the
 * reader's own, else its fallbacks), so a Thai reader sees every news item, in English.
 */
async function localizedRows(
  station: Station,
  kind: ContentKind,
  lang: ContentLang,
  category?: string,
): Promise<ListedRow[]> {
  const langs = contentFallbacks(lang);
  let query = station.db
    .selectFrom('content_items')
    .select([
      'id',
      'kind',
      'slug',
      'lang',
      'category',
      'title',
      'summary',
      'source',
      'published_at',
      'sort_order',
      'updated_at',
    ])
    .where('kind', '=', kind)
    .where('hidden', '=', 0)
    .where('lang', 'in', langs);
  if (category !== undefined) query = query.where('category', '=', category);
  const rows = await query.execute();
  const best = new Map<string, ListedRow>();
  for (const row of rows) {
    const current = best.get(row.slug);
    if (!current || langs.indexOf(row.lang as ContentLang) < langs.indexOf(current.lang as ContentLang))
      best.set(row.slug, row);
  }
  return [...best.values()];
}

const newestFirst = (a: ListedRow, b: ListedRow) => b.published_at - a.published_at || b.id - a.id;

function pageOf<T>(all: T[], pageNum: number, pageSize: number): Page<T> {
  const start = (pageNum - 1) * pageSize;
  return { list: all.slice(start, start + pageSize), total: all.length, pageNum, pageSize };
}

export async function listContent(
  station: Station,
  opts: { kind: ContentKind; lang: ContentLang; category?: string; pageNum: number; pageSize: number },
): Promise<Page<ListedRow>> {
  const rows = await localizedRows(station, opts.kind, opts.lang, opts.category);
  if (opts.kind === 'article') {
    // The college reads as a course: shelf by shelf, in the order the articles were written.
    const shelf = (c: string) => (ART_CATEGORIES as readonly string[]).indexOf(c);
    rows.sort((a, b) => shelf(a.category) - shelf(b.category) || a.sort_order - b.sort_order);
  } else rows.sort(newestFirst);
  return pageOf(rows, opts.pageNum, opts.pageSize);
}

/** Visible articles per category for a reader of `lang`. */
export async function articleCategories(
  station: Station,
  lang: ContentLang,
): Promise<{ category: string; total: number }[]> {
  const rows = await localizedRows(station, 'article', lang);
  return ART_CATEGORIES.map((category) => ({
    category,
    total: rows.filter((r) => r.category === category).length,
  }));
}

/** One visible item of a kind by id; NOT_FOUND for another kind, a hidden or a missing one. */
export async function contentById(station: Station, kind: ContentKind, id: number): Promise<ContentRow> {
  const row = await station.db
    .selectFrom('content_items')
    .selectAll()
    .where('id', '=', id)
    .where('kind', '=', kind)
    .where('hidden', '=', 0)
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

/** A site page in the reader's language (or the nearest one written). */
export async function sitePage(station: Station, key: string, lang: ContentLang): Promise<ContentRow> {
  const langs = contentFallbacks(lang);
  const rows = await station.db
    .selectFrom('content_items')
    .selectAll()
    .where('kind', '=', 'page')
    .where('slug', '=', key)
    .where('hidden', '=', 0)
    .where('lang', 'in', langs)
    .execute();
  rows.sort((a, b) => langs.indexOf(a.lang as ContentLang) - langs.indexOf(b.lang as ContentLang));
  const row = rows[0];
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

/** The operator's change to an item (CLI): only the given fields change; audited with the reason. */
export interface ContentChange {
  title?: string;
  summary?: string;
  body?: string;
  source?: string;
  category?: string;
  hidden?: boolean;
}

function checkChange(kind: ContentKind, change: ContentChange): void {
  const bad = (field: string, detail: string) =>
    new AppError('VALIDATION', { fields: { [field]: 'invalid' }, params: { detail } });
  if (change.title !== undefined && (change.title.trim() === '' || change.title.length > LIMITS.title))
    throw bad('title', `1 to ${LIMITS.title} characters`);
  if (change.summary !== undefined && change.summary.length > LIMITS.summary)
    throw bad('summary', `at most ${LIMITS.summary} characters`);
  if (change.body !== undefined && change.body.length > LIMITS.body)
    throw bad('body', `at most ${LIMITS.body} characters`);
  if (change.source !== undefined && change.source.length > LIMITS.source)
    throw bad('source', `at most ${LIMITS.source} characters`);
  if (change.category !== undefined && !CATEGORIES[kind].includes(change.category))
    throw bad('category', `one of ${CATEGORIES[kind].join(', ')}`);
}

export async function updateContent(
  station: Station,
  id: number,
  change: ContentChange,
  actor: string,
  reason: string,
): Promise<ContentRow> {
  const db = station.db;
  const row = await db.selectFrom('content_items').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  checkChange(row.kind, change);
  const now = station.clock.now();
  const values = {
    ...(change.title !== undefined ? { title: change.title.trim() } : {}),
    ...(change.summary !== undefined ? { summary: change.summary.trim() } : {}),
    ...(change.body !== undefined ? { body: change.body } : {}),
    ...(change.source !== undefined ? { source: change.source.trim() } : {}),
    ...(change.category !== undefined ? { category: change.category } : {}),
    ...(change.hidden !== undefined ? { hidden: change.hidden ? 1 : 0 } : {}),
    updated_at: now,
  };
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('content_items').set(values).where('id', '=', id).execute();
    await audit(trx, {
      time: now,
      actor,
      action: 'content.edit',
      userId: null,
      reason,
      detail: {
        id,
        kind: row.kind,
        slug: row.slug,
        lang: row.lang,
        fields: Object.keys(values).filter((k) => k !== 'updated_at'),
      },
    });
  });
  return (await db.selectFrom('content_items').selectAll().where('id', '=', id).executeTakeFirst())!;
}

/** The operator adds an item (CLI), published now unless a time is given; audited. */
export async function addContent(
  station: Station,
  item: Omit<SeedItem, 'publishedAt' | 'sortOrder'> & { publishedAt?: number },
  actor: string,
  reason: string,
): Promise<ContentRow> {
  if (!/^[a-z0-9-]{1,100}$/.test(item.slug))
    throw new AppError('VALIDATION', {
      fields: { slug: 'invalid' },
      params: { detail: 'a-z, 0-9 and -' },
    });
  checkChange(item.kind, item);
  const db = station.db;
  const now = station.clock.now();
  const taken = await db
    .selectFrom('content_items')
    .select('id')
    .where('kind', '=', item.kind)
    .where('slug', '=', item.slug)
    .where('lang', '=', item.lang)
    .executeTakeFirst();
  if (taken) throw new AppError('ALREADY_DONE', { params: { detail: `item ${taken.id} has this slug` } });
  const last = await db
    .selectFrom('content_items')
    .select((eb) => eb.fn.max('sort_order').as('max'))
    .where('kind', '=', item.kind)
    .executeTakeFirst();
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('content_items')
      .values({
        kind: item.kind,
        slug: item.slug,
        lang: item.lang,
        category: item.category,
        title: item.title.trim(),
        summary: item.summary.trim(),
        body: item.body,
        source: item.source.trim() || 'PaperDesk',
        published_at: item.publishedAt ?? now,
        sort_order: Number(last?.max ?? 0) + 1,
        hidden: 0,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(trx, {
      time: now,
      actor,
      action: 'content.add',
      userId: null,
      reason,
      detail: { id: inserted.id, kind: item.kind, slug: item.slug, lang: item.lang },
    });
    return inserted;
  });
}

export {
  SERVICE_MESSAGES_PER_HOUR,
  replyToService,
  sendServiceMessage,
  serviceThread,
  serviceView,
} from './customer-service';
