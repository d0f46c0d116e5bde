/**
 * The operator's content and customer-service commands: list, show, edit and add news, notices, college
 * articles and site pages (Markdown), and answer users' messages. Every change needs a reason and is
 * written to the audit log with the operator's name.
 */
import { readFileSync } from 'node:fs';
import { isContentLang } from '../../src/shared/content';
import type { ContentKind } from '../platform';
import { addContent, replyToService, seedContent, updateContent, type ContentChange } from '../content';
import { idOf, limitOf, reasonOf, timeText, UsageError, type OperatorCommand } from './command';

const KINDS: readonly ContentKind[] = ['news', 'notice', 'article', 'page'];
const LANGS = 'zh-CN|en|zh-TW|th|vi';

function kindOf(raw: string | undefined): ContentKind {
  const kind = KINDS.find((k) => k === raw);
  if (!kind) throw new UsageError(`the kind is one of ${KINDS.join(', ')}`);
  return kind;
}

function readBody(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`cannot read --body-file ${file}`);
  }
}

/** The command line may run before the station ever started: the starter content is there either way. */
function withContent(run: OperatorCommand['run']): OperatorCommand['run'] {
  return async (context, input) => {
    await seedContent(context.station);
    return run(context, input);
  };
}

const contentList: OperatorCommand = {
  name: 'content-list',
  usage: `news|notice|article|page [--lang ${LANGS}] [--limit n]`,
  summary: 'list items: id, language, category, slug, hidden, title',
  options: ['lang', 'limit'],
  positionals: 1,
  run: withContent(async ({ station, print }, { positionals, options }) => {
    const kind = kindOf(positionals[0]);
    let query = station.db
      .selectFrom('content_items')
      .select(['id', 'lang', 'category', 'slug', 'hidden', 'title', 'published_at'])
      .where('kind', '=', kind)
      .orderBy('published_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limitOf(options, 100));
    if (options.lang !== undefined) {
      if (!isContentLang(options.lang)) throw new UsageError(`--lang ${LANGS}`);
      query = query.where('lang', '=', options.lang);
    }
    const rows = await query.execute();
    print(`${rows.length} ${kind} item(s)`);
    for (const r of rows)
      print(
        `#${r.id}  ${r.lang}  ${r.category}  ${r.slug}${r.hidden ? '  [hidden]' : ''}  ${timeText(r.published_at)}  ${r.title}`,
      );
  }),
};

const contentShow: OperatorCommand = {
  name: 'content-show',
  usage: '<id>',
  summary: 'print one item with its Markdown',
  options: [],
  positionals: 1,
  run: withContent(async ({ station, print }, { positionals }) => {
    const id = idOf(positionals[0], 'content id');
    const r = await station.db
      .selectFrom('content_items')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!r) {
      print(`content-show: no item ${id}`);
      return;
    }
    print(`#${r.id} ${r.kind} ${r.lang} ${r.category} ${r.slug}${r.hidden ? ' [hidden]' : ''}`);
    print(`title: ${r.title}`);
    print(`summary: ${r.summary}`);
    print(`source: ${r.source}  published: ${timeText(r.published_at)}  updated: ${timeText(r.updated_at)}`);
    print('');
    print(r.body);
  }),
};

const contentEdit: OperatorCommand = {
  name: 'content-edit',
  usage:
    '<id> [--title "…"] [--summary "…"] [--source "…"] [--category c]\n' +
    '               [--body-file file.md] [--hidden yes|no] --reason "…"',
  summary: 'change an item (only the options given)',
  options: ['title', 'summary', 'source', 'category', 'body-file', 'hidden', 'reason'],
  positionals: 1,
  run: withContent(async ({ station, print, actor }, { positionals, options }) => {
    const id = idOf(positionals[0], 'content id');
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
  }),
};

const contentAdd: OperatorCommand = {
  name: 'content-add',
  usage:
    'news|notice|article|page <slug> --lang l --category c --title "…"\n' +
    '               --body-file file.md [--summary "…"] [--source "…"] --reason "…"',
  summary: 'add an item, published now',
  options: ['lang', 'category', 'title', 'body-file', 'summary', 'source', 'reason'],
  positionals: 2,
  run: withContent(async ({ station, print, actor }, { positionals, options }) => {
    const kind = kindOf(positionals[0]);
    const slug = positionals[1] ?? '';
    const lang = options.lang ?? '';
    if (!isContentLang(lang)) throw new UsageError(`--lang ${LANGS} is required`);
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
  }),
};

const serviceInbox: OperatorCommand = {
  name: 'service-inbox',
  usage: '[--limit n]',
  summary: "threads whose last message is the user's, oldest waiting first",
  options: ['limit'],
  positionals: 0,
  run: withContent(async ({ station, print }, { options }) => {
    const rows = await station.db
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
      print(`user ${r.user_id}  ${r.phone}  ${timeText(r.created_at)}  ${r.content.replace(/\s+/g, ' ')}`);
  }),
};

const serviceThread: OperatorCommand = {
  name: 'service-thread',
  usage: '<userId>',
  summary: "a user's thread",
  options: [],
  positionals: 1,
  run: withContent(async ({ station, print }, { positionals }) => {
    const userId = idOf(positionals[0], 'user id');
    const rows = await station.db
      .selectFrom('service_messages')
      .select(['id', 'sender', 'staff_name', 'content', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
    print(`${rows.length} message(s) with user ${userId}`);
    for (const r of rows)
      print(
        `${timeText(r.created_at)}  ${r.sender === 'user' ? 'user' : `staff:${r.staff_name ?? ''}`}  ${r.content}`,
      );
  }),
};

const serviceReply: OperatorCommand = {
  name: 'service-reply',
  usage: '<userId> "answer" --reason "…"',
  summary: "answer a user in the app's customer-service thread",
  options: ['reason'],
  positionals: 2,
  run: withContent(async ({ station, print, actor }, { positionals, options }) => {
    const userId = idOf(positionals[0], 'user id');
    const text = positionals[1] ?? '';
    if (text.trim() === '') throw new UsageError('service-reply <userId> "answer" --reason "…"');
    const reason = reasonOf(options);
    await replyToService(station, userId, text, actor, reason);
    print(`service-reply: answered user ${userId} (audited)`);
  }),
};

export const CONTENT_COMMANDS: readonly OperatorCommand[] = [
  contentList,
  contentShow,
  contentEdit,
  contentAdd,
  serviceInbox,
  serviceThread,
  serviceReply,
];
