/**
 * Messages of the station to a user (limit-order fills, stops, risk warnings, liquidations, deposit and
 * withdrawal results, KYC results). A message is stored as a key and its parameters and translated when
 * read, in the reader's language, from the `userMessages` section of the app's locale files (the title is
 * the key + "Title"). A parameter `@errors.KEY` or `@validation.key` (a stored reason) is translated too.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { UserMessage, UserMessagePage } from '../../src/shared/api/types';
import {
  AppError,
  BASE_LOCALE,
  DEFAULT_LOCALES_DIR,
  amountIn,
  fillTemplate,
  type Db,
  type Tx,
  type UserMessageRow,
} from '../platform';
import { localizeNames } from '../market';

export type MessageParams = Record<string, string | number>;

export interface NewMessage {
  userId: number;
  kind: string;
  msgKey: string;
  params: MessageParams;
  refType?: string | null;
  refId?: number | null;
  now: number;
}

/** Writes a message inside the caller's transaction, so it exists exactly when its cause does. */
export async function postMessage(trx: Tx, message: NewMessage): Promise<void> {
  await trx
    .insertInto('user_messages')
    .values({
      user_id: message.userId,
      kind: message.kind,
      msg_key: message.msgKey,
      params: JSON.stringify(message.params),
      ref_type: message.refType ?? null,
      ref_id: message.refId ?? null,
      created_at: message.now,
      read_at: null,
    })
    .execute();
}

type Texts = Record<string, string>;

/** The locale sections a message or its parameters are read from. */
const SECTIONS = ['userMessages', 'errors', 'validation'] as const;
type SectionName = (typeof SECTIONS)[number];

/** Every locale folder's message sections, by folder name. */
export async function loadMessageTexts(
  localesDir: string = DEFAULT_LOCALES_DIR,
  localName?: LocalName,
): Promise<MessageTexts> {
  const byLocale = new Map<string, Record<SectionName, Texts>>();
  for (const entry of readdirSync(localesDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const file = ['index.ts', 'index.js'].map((f) => path.join(localesDir, entry.name, f)).find(existsSync);
    if (!file) continue;
    const mod = (await import(pathToFileURL(file).href)) as { default?: Record<string, unknown> };
    const sections = {} as Record<SectionName, Texts>;
    for (const name of SECTIONS) {
      const section = mod.default?.[name];
      const texts: Texts = {};
      if (typeof section === 'object' && section !== null) {
        for (const [key, value] of Object.entries(section)) if (typeof value === 'string') texts[key] = value;
      }
      sections[name] = texts;
    }
    byLocale.set(entry.name, sections);
  }
  return new MessageTexts(byLocale, localName);
}

/** An instrument's name in a locale when `name` is its Chinese catalogue name (MarketService.localName). */
export type LocalName = (code: string, name: string, locale: string) => string | undefined;

export class MessageTexts {
  constructor(
    private readonly byLocale: ReadonlyMap<string, Record<SectionName, Texts>>,
    private readonly localName?: LocalName,
  ) {}

  private lookup(locale: string, section: SectionName, key: string): string | undefined {
    return this.byLocale.get(locale)?.[section][key] ?? this.byLocale.get(BASE_LOCALE)?.[section][key];
  }

  /** A stored reason `@errors.KEY` / `@validation.key` in the reader's language; amounts with separators. */
  param(locale: string, value: string | number): string {
    if (typeof value !== 'string' || !value.startsWith('@')) return amountIn(value, locale);
    const [section = '', key = ''] = value.slice(1).split('.');
    const known = section === 'errors' || section === 'validation';
    return (known ? this.lookup(locale, section, key) : undefined) ?? value;
  }

  text(locale: string, key: string, stored: MessageParams): string {
    const template = this.lookup(locale, 'userMessages', key) ?? key;
    // A message keeps the instrument's name it was written with; the reader sees it in their language.
    const localName = this.localName;
    const params = localName ? localizeNames(stored, (code, name) => localName(code, name, locale)) : stored;
    // `{unit}` counts `{lots}` as the market does (lots, shares, contracts); older messages had only lots.
    const counted =
      template.includes('{unit}') && params.unit === undefined ? { ...params, unit: 'lots' } : params;
    return fillTemplate(template, counted, locale, (name, value) =>
      name === 'unit' ? this.unit(locale, value, counted.lots) : this.param(locale, value),
    );
  }

  /** A quantity's unit (`unit_lots`, …) in the reader's language, in the plural form its count takes. */
  private unit(locale: string, unit: string | number, count: string | number | undefined): string {
    const template = this.lookup(locale, 'userMessages', `unit_${unit}`) ?? String(unit);
    return fillTemplate(template, undefined, locale, undefined, typeof count === 'number' ? count : null);
  }
}

function parseParams(json: string): MessageParams {
  try {
    const value = JSON.parse(json) as unknown;
    return typeof value === 'object' && value !== null ? (value as MessageParams) : {};
  } catch {
    return {};
  }
}

export function toUserMessage(row: UserMessageRow, texts: MessageTexts, locale: string): UserMessage {
  const params = parseParams(row.params);
  return {
    id: row.id,
    kind: row.kind,
    title: texts.text(locale, `${row.msg_key}Title`, params),
    content: texts.text(locale, row.msg_key, params),
    refType: row.ref_type,
    refId: row.ref_id,
    createdAt: row.created_at,
    readAt: row.read_at,
  };
}

export async function unreadCount(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('user_messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listMessages(
  db: Db,
  texts: MessageTexts,
  locale: string,
  userId: number,
  query: { unreadOnly?: boolean | undefined; pageNum: number; pageSize: number },
): Promise<UserMessagePage> {
  const base = db
    .selectFrom('user_messages')
    .where('user_id', '=', userId)
    .$if(query.unreadOnly === true, (q) => q.where('read_at', 'is', null));
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('id', 'desc')
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize)
    .execute();
  return {
    list: rows.map((row) => toUserMessage(row, texts, locale)),
    total: Number(total),
    pageNum: query.pageNum,
    pageSize: query.pageSize,
    unread: await unreadCount(db, userId),
  };
}

/**
 * Marks one message of the user (or, without an id, all of them) read; answers the unread count. Another
 * user's message, or none with that id, is NOT_FOUND.
 */
export async function markRead(
  db: Db,
  userId: number,
  id: number | undefined,
  now: number,
): Promise<{ unread: number }> {
  if (id !== undefined) {
    const mine = await db
      .selectFrom('user_messages')
      .select('id')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!mine) throw new AppError('NOT_FOUND');
  }
  await db
    .updateTable('user_messages')
    .set({ read_at: now })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .$if(id !== undefined, (q) => q.where('id', '=', id!))
    .execute();
  return { unread: await unreadCount(db, userId) };
}
