/**
 * The operator's content and customer-service commands (`npm run station -- <command>`): list, show, edit
 * and add news, notices, college articles and site pages (Markdown), and answer users' messages. Every
 * change needs a reason and is written to the audit log with the operator's name.
 */
import { readFileSync } from 'node:fs';
import { isContentLang } from '../../src/shared/content';
import type { ContentKind } from '../db/content-schema';
import { addContent, replyToService, seedContent, updateContent, type ContentChange } from './content';
import type { Station } from './context';
import { UsageError } from './operator';

export const CONTENT_COMMANDS = [
  'content-list',
  'content-show',
  'content-edit',
  'content-add',
  'service-inbox',
  'service-thread',
  'service-reply',
] as const;

export const CONTENT_USAGE = `Content commands (news, notices, college articles, site pages; Markdown):
  content-list news|notice|article|page [--lang zh-CN|en|zh-TW|th|vi] [--limit n]
                                  list items: id, language, category, slug, hidden, title
  content-show <id>               print one item with its Markdown
  content-edit <id> [--title "…"] [--summary "…"] [--source "…"] [--category c]
               [--body-file file.md] [--hidden yes|no] --reason "…"
                                  change an item (only the options given)
  content-add news|notice|article|page <slug> --lang l --category c --title "…"
               --body-file file.md [--summary "…"] [--source "…"] --reason "…"
                                  add an item, published now
Customer service:
  service-inbox [--limit n]       threads whose last message is the user's, oldest waiting first
  service-thread <userId>         a user's thread
  service-reply <userId> "answer" --reason "…"
                                  answer a user in the app's customer-service thread`;

const KINDS: readonly ContentKind[] = ['news', 'notice', 'article', 'page'];

function parse(args: string[]): { positional: string[]; options: Record<string, string> } {
  const positional: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg.startsWith('--')) {
      const value = args[i + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`${arg} needs a value`);
      options[arg.slice(2)] = value;
      i += 1;
    } else positional.push(arg);
  }
  return { positional, options };
}

function idOf(raw: string | undefined, what: string): number {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id < 1) throw new UsageError(`not a ${what}: ${raw ?? '(missing)'}`);
  return id;
}

function kindOf(raw: string | undefined): ContentKind {
  const kind = KINDS.find((k) => k === raw);
  if (!kind) throw new UsageError(`the kind is one of ${KINDS.join(', ')}`);
  return kind;
}

function reasonOf(options: Record<string, string>): string {
  const reason = (options.reason ?? '').trim();
  if (reason === '')
    throw new UsageError('--reason "…" is required: every change is audited with its reason');
  if (reason.length > 500) throw new UsageError('--reason is at most 500 characters');
  return reason;
}

function limitOf(options: Record<string, string>, fallback: number): number {
  if (options.limit === undefined) return fallback;
  const n = Number(options.limit);
  if (!Number.isInteger(n) || n < 1 || n > 10_000)
    throw new UsageError('--limit is a whole number from 1 to 10000');
  return n;
}

function readBody(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`cannot read --body-file ${file}`);
  }
}

const time = (t: number | null) => (t === null ? '-' : new Date(t).toISOString().replace('.000Z', 'Z'));

/**
 * Runs one content or customer-service command; false when `command` is not one of these. Throws
 * UsageError for bad arguments and AppError for refused actions (operator.ts describeFailure explains both).
 */
export async function runContentCommand(
  station: Station,
  command: string,
  args: string[],
  print: (line: string) => void,
  defaultActor: string,
): Promise<boolean> {
  if (!(CONTENT_COMMANDS as readonly string[]).includes(command)) return false;
  const { positional, options } = parse(args);
  const actor = (options.by ?? defaultActor).trim().slice(0, 64) || 'operator';
  const db = station.db;
  // The command line may run before the station ever started: the starter content is there either way.
  await seedContent(station);
  switch (command) {
    case 'content-list': {
      const kind = kindOf(positional[0]);
      let query = db
        .selectFrom('content_items')
        .select(['id', 'lang', 'category', 'slug', 'hidden', 'title', 'published_at'])
        .where('kind', '=', kind)
        .orderBy('published_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limitOf(options, 100));
      if (options.lang !== undefined) {
        if (!isContentLang(options.lang)) throw new UsageError('--lang zh-CN|en|zh-TW|th|vi');
        query = query.where('lang', '=', options.lang);
      }
      const rows = await query.execute();
      print(`${rows.length} ${kind} item(s)`);
      for (const r of rows)
        print(
          `#${r.id}  ${r.lang}  ${r.category}  ${r.slug}${r.hidden ? '  [hidden]' : ''}  ${time(r.published_at)}  ${r.title}`,
        );
      return true;
    }
    case 'content-show': {
      const id = idOf(positional[0], 'content id');
      const r = await db.selectFrom('content_items').selectAll().where('id', '=', id).executeTakeFirst();
      if (!r) {
        print(`content-show: no item ${id}`);
        return true;
      }
      print(`#${r.id} ${r.kind} ${r.lang} ${r.category} ${r.slug}${r.hidden ? ' [hidden]' : ''}`);
      print(`title: ${r.title}`);
      print(`summary: ${r.summary}`);
      print(`source: ${r.source}  published: ${time(r.published_at)}  updated: ${time(r.updated_at)}`);
      print('');
      print(r.body);
      return true;
    }
    case 'content-edit': {
      const id = idOf(positional[0], 'content id');
      const change: ContentChange = {};
      if (options.title !== undefined) change.title = options.title;
      if (options.summary !== undefined) change.summary = options.summary;
      if (options.source !== undefined) change.source = options.source;
      if (options.category !== undefined) change.category = options.category;
      if (options['body-file'] !== undefined) change.body = readBody(options['body-file']);
      if (options.hidden !== undefined) {
        if (options.hidden !== 'yes' && options.hidden !== 'no') throw new UsageError('--hidden yes|no');
        change.hidden = options.hidden === 'yes';
      }
      if (Object.keys(change).length === 0) throw new UsageError('content-edit: nothing to change');
      const reason = reasonOf(options);
      const row = await updateContent(station, id, change, actor, reason);
      print(`content-edit: #${row.id} ${row.kind} ${row.lang} ${row.slug} changed (audited)`);
      return true;
    }
    case 'content-add': {
      const kind = kindOf(positional[0]);
      const slug = positional[1] ?? '';
      const lang = options.lang ?? '';
      if (!isContentLang(lang)) throw new UsageError('--lang zh-CN|en|zh-TW|th|vi is required');
      if (options.title === undefined) throw new UsageError('--title "…" is required');
      if (options['body-file'] === undefined) throw new UsageError('--body-file file.md is required');
      const reason = reasonOf(options);
      const row = await addContent(
        station,
        {
          kind,
          slug,
          lang,
          category: options.category ?? (kind === 'page' ? slug : ''),
          title: options.title,
          summary: options.summary ?? '',
          source: options.source ?? 'PaperDesk',
          body: readBody(options['body-file']),
        },
        actor,
        reason,
      );
      print(`content-add: #${row.id} ${row.kind} ${row.lang} ${row.slug} added (audited)`);
      return true;
    }
    case 'service-inbox': {
      const rows = await db
        .selectFrom('service_messages as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select(['m.id', 'm.user_id', 'u.phone', 'm.sender', 'm.content', 'm.created_at'])
        .where('m.id', 'in', (eb) =>
          eb
            .selectFrom('service_messages')
            .select((e) => e.fn.max('id').as('id'))
            .groupBy('user_id'),
        )
        .where('m.sender', '=', 'user')
        .orderBy('m.id')
        .limit(limitOf(options, 50))
        .execute();
      print(`${rows.length} thread(s) waiting for an answer`);
      for (const r of rows)
        print(`user ${r.user_id}  ${r.phone}  ${time(r.created_at)}  ${r.content.replace(/\s+/g, ' ')}`);
      return true;
    }
    case 'service-thread': {
      const userId = idOf(positional[0], 'user id');
      const rows = await db
        .selectFrom('service_messages')
        .select(['id', 'sender', 'staff_name', 'content', 'created_at'])
        .where('user_id', '=', userId)
        .orderBy('id')
        .execute();
      print(`${rows.length} message(s) with user ${userId}`);
      for (const r of rows)
        print(
          `${time(r.created_at)}  ${r.sender === 'user' ? 'user' : `staff:${r.staff_name ?? ''}`}  ${r.content}`,
        );
      return true;
    }
    case 'service-reply': {
      const userId = idOf(positional[0], 'user id');
      const text = positional[1] ?? '';
      if (text.trim() === '') throw new UsageError('service-reply <userId> "answer" --reason "…"');
      const reason = reasonOf(options);
      await replyToService(station, userId, text, actor, reason);
      print(`service-reply: answered user ${userId} (audited)`);
      return true;
    }
  }
  return false;
}
