import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ArticleCategory,
  ArticleDetail,
  ArticleItem,
  NewsDetail,
  NewsItem,
  NoticeDetail,
  NoticeItem,
  Page,
  ServiceMessage,
  SitePage,
  VersionInfo,
} from '../../src/shared/api/types';
import { ART_CATEGORIES, CONTENT_LANGS, NEWS_TYPES, PAGE_KEYS } from '../../src/shared/content';
import { seedContent } from '../../server/content/content';
import { runOperatorCommand } from '../../server/cli/commands';
import type { FixedClock } from '../../server/market/clock';
import {
  api,
  data,
  dbTargets,
  failure,
  register,
  startStation,
  type ApiClient,
  type TestStation,
} from './helpers/station';

const run = promisify(execFile);

/** Latin words a Chinese title may carry: market codes, units and indicator names (no English words). */
const LATIN_IN_CHINESE_TITLES = new Set(
  'A H K T+0 T+1 T+2 ST STAR ETF PE IPO VIP HK US MA EMA MACD DIF DEA KDJ RSI BOLL VOL PaperDesk'.split(' '),
);
/** Common characters written differently in Simplified and Traditional Chinese. */
const SIMPLIFIED_ONLY = /[这们个为国说时会对发过还后经与买卖价钱账户资涨级让银证]/u;
const TRADITIONAL_ONLY = /[這們個為國說時會對發過還後經與買賣價錢帳戶資漲級讓銀證]/u;
/** Vietnamese letters English never writes (a Vietnamese line without one is English left untranslated). */
const VIETNAMESE_LETTER = /[àáãèéìíòóõùúýăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]/iu;

describe.each(dbTargets)('news, notices, college, pages and customer service (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;
  let tmp: string;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
    tmp = mkdtempSync(path.join(tmpdir(), 'paperdesk-content-'));
  });
  afterAll(async () => {
    await station?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const op = async (command: string, ...args: string[]) => {
    const lines: string[] = [];
    const known = await runOperatorCommand(
      station.app.station,
      command,
      args,
      (l) => lines.push(l),
      'tester',
    );
    expect(known).toBe(true);
    return lines;
  };
  const news = (query: Record<string, string | number> = {}, lang = 'zh-CN') =>
    client.withLang(lang).get<Page<NewsItem>>('/api/news/getNewsList.do', query);

  describe('news', () => {
    it('pages by 15 from page 1, newest first, every item once', async () => {
      const first = data(await news());
      expect(first.pageNum).toBe(1);
      expect(first.pageSize).toBe(15);
      expect(first.list).toHaveLength(15);
      expect(first.total).toBeGreaterThanOrEqual(40);
      const pages = Math.ceil(first.total / 15);
      const all = [...first.list];
      for (let p = 2; p <= pages; p++) all.push(...data(await news({ pageNum: p })).list);
      expect(all).toHaveLength(first.total);
      expect(new Set(all.map((n) => n.id)).size).toBe(first.total);
      for (let i = 1; i < all.length; i++)
        expect(all[i]!.publishedAt).toBeLessThanOrEqual(all[i - 1]!.publishedAt);
      const beyond = data(await news({ pageNum: pages + 1 }));
      expect(beyond.list).toEqual([]);
      expect(beyond.total).toBe(first.total);
    });

    it('filters by type and refuses unknown types and bad paging', async () => {
      for (const type of NEWS_TYPES) {
        const page = data(await news({ type, pageSize: 100 }));
        expect(page.total, type).toBeGreaterThan(0);
        expect(page.list.every((n) => n.type === type)).toBe(true);
      }
      expect(failure(await news({ type: 'gossip' })).code).toBe('VALIDATION');
      expect((await news({ pageNum: 0 })).http).toBe(400);
      expect((await news({ pageSize: 101 })).http).toBe(400);
      expect((await news({ pageNum: 'x' })).http).toBe(400);
    });

    it('answers in the reader language, and marks the language of each item', async () => {
      const zh = data(await news({ pageSize: 100 }, 'zh-CN'));
      const en = data(await news({ pageSize: 100 }, 'en-US,en;q=0.9'));
      expect(zh.list.every((n) => n.lang === 'zh-CN')).toBe(true);
      expect(en.list.every((n) => n.lang === 'en')).toBe(true);
      expect(en.total).toBe(zh.total);
      expect(data(await news({}, 'zh-TW')).list[0]!.lang).toBe('zh-TW');
      expect(data(await news({}, 'th')).list[0]!.lang).toBe('th');
      expect(data(await news({}, 'vi')).list[0]!.lang).toBe('vi');
      // ?lang= wins over the header.
      expect(data(await news({ lang: 'en' }, 'zh-CN')).list[0]!.lang).toBe('en');
      expect(/[\u4e00-\u9fff]/.test(zh.list[0]!.title)).toBe(true);
      expect(/[\u4e00-\u9fff]/.test(en.list[0]!.title)).toBe(false);
    });

    it('has every news item, notice and college article in each of the five languages, with no code showing', async () => {
      const shown = new Map<string, string[]>();
      for (const lang of CONTENT_LANGS) {
        const reader = client.withLang(lang);
        const newsList = data(
          await reader.get<Page<NewsItem>>('/api/news/getNewsList.do', { pageSize: 100 }),
        );
        const notices = data(
          await reader.get<Page<NoticeItem>>('/api/notice/getNoticeList.do', { pageSize: 100 }),
        );
        const articles = data(await reader.get<Page<ArticleItem>>('/api/art/list.do', { pageSize: 100 }));
        const items = [
          ...newsList.list.map((n) => ({ key: `news ${n.type} ${n.publishedAt}`, ...n })),
          ...notices.list.map((n) => ({ key: `notice ${n.level} ${n.publishedAt}`, ...n })),
          ...articles.list.map((a) => ({ key: `article ${a.category} ${a.publishedAt}`, ...a })),
        ];
        expect(newsList.total + notices.total + articles.total).toBe(items.length);
        shown.set(lang, items.map((i) => i.key).sort());
        for (const item of items) {
          const where = `${lang} ${item.key} "${item.title}"`;
          expect(item.lang, where).toBe(lang);
          const detailPath = item.key.startsWith('news')
            ? '/api/news/getDetail.do'
            : item.key.startsWith('notice')
              ? '/api/notice/getDetail.do'
              : '/api/art/detail.do';
          const { content } = data(await reader.get<{ content: string }>(detailPath, { id: item.id }));
          const text = `${item.title}\n${item.summary}\n${content}`;
          // Content never shows an internal code, a message key or an API path.
          expect(text, where).not.toMatch(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\{\{|@[a-z]+\.[a-z]|\/api\/|\.do\b/);
          if (lang === 'en' || lang === 'th' || lang === 'vi')
            expect(text, where).not.toMatch(/\p{Script=Han}/u);
          if (lang === 'th') expect(item.title, where).toMatch(/\p{Script=Thai}/u);
          if (lang === 'th' || lang === 'vi') {
            // No paragraph, list item or table row left in English: a line of prose (three lowercase
            // Latin words or more) carries the reader's script.
            const own = lang === 'th' ? /\p{Script=Thai}/u : VIETNAMESE_LETTER;
            const prose = text.split('\n').filter((line) => (line.match(/\b[a-z]{2,}\b/g) ?? []).length >= 3);
            expect(
              prose.filter((line) => !own.test(line)),
              where,
            ).toEqual([]);
          }
          if (lang === 'zh-CN' || lang === 'zh-TW') {
            // Chinese titles carry Latin letters only as market codes, tickers and indicator names.
            const latin = item.title.match(/\p{Script=Latin}[\p{Script=Latin}\d+]*/gu) ?? [];
            expect(
              latin.filter((w) => !LATIN_IN_CHINESE_TITLES.has(w)),
              where,
            ).toEqual([]);
          }
          // Each script is its own: no Simplified-only characters in Traditional text, and the reverse.
          if (lang === 'zh-TW') expect(text, where).not.toMatch(SIMPLIFIED_ONLY);
          if (lang === 'zh-CN') expect(text, where).not.toMatch(TRADITIONAL_ONLY);
        }
      }
      for (const lang of CONTENT_LANGS) expect(shown.get(lang), lang).toEqual(shown.get('zh-CN'));
      expect(shown.get('en')!.length).toBeGreaterThanOrEqual(90);
    });

    it('opens one item with its Markdown; an unknown or other-kind id is 404', async () => {
      const item = data(await news()).list[0]!;
      const detail = data(await client.get<NewsDetail>('/api/news/getDetail.do', { id: item.id }));
      expect(detail).toMatchObject({ id: item.id, title: item.title, type: item.type, lang: item.lang });
      expect(detail.content.length).toBeGreaterThan(50);
      expect(failure(await client.get('/api/news/getDetail.do', { id: 999_999 })).code).toBe('NOT_FOUND');
      const notice = data(await client.get<Page<NoticeItem>>('/api/notice/getNoticeList.do')).list[0]!;
      expect((await client.get('/api/news/getDetail.do', { id: notice.id })).http).toBe(404);
      expect((await client.get('/api/news/getDetail.do', { id: 'abc' })).http).toBe(400);
      expect((await client.get('/api/news/getDetail.do')).http).toBe(400);
    });
  });

  it('lists notices newest first with a level, and opens one', async () => {
    const page = data(
      await client.withLang('en').get<Page<NoticeItem>>('/api/notice/getNoticeList.do', { pageSize: 100 }),
    );
    expect(page.total).toBeGreaterThanOrEqual(20);
    expect(page.list.every((n) => n.lang === 'en' && ['info', 'important'].includes(n.level))).toBe(true);
    const detail = data(await client.get<NoticeDetail>('/api/notice/getDetail.do', { id: page.list[0]!.id }));
    expect(detail.title).toBe(page.list[0]!.title);
    expect(detail.content).not.toBe('');
  });

  it('shelves the college by category in course order, with counts, and opens an article', async () => {
    const categories = data(await client.get<ArticleCategory[]>('/api/art/categories.do'));
    expect(categories.map((c) => c.category)).toEqual([...ART_CATEGORIES]);
    const all = data(await client.get<Page<ArticleItem>>('/api/art/list.do', { pageSize: 100 }));
    expect(all.total).toBeGreaterThanOrEqual(30);
    expect(categories.reduce((s, c) => s + c.total, 0)).toBe(all.total);
    const order = all.list.map((a) => ART_CATEGORIES.indexOf(a.category));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    for (const { category, total } of categories) {
      const shelf = data(await client.get<Page<ArticleItem>>('/api/art/list.do', { category }));
      expect(shelf.total).toBe(total);
      expect(shelf.list.every((a) => a.category === category)).toBe(true);
    }
    const tPlusOne = all.list.find((a) => a.title.includes('T+1'))!;
    const article = data(await client.get<ArticleDetail>('/api/art/detail.do', { id: tPlusOne.id }));
    expect(article.content).toContain('T+1');
    const en = data(
      await client.withLang('en').get<Page<ArticleItem>>('/api/art/list.do', { category: 'indicators' }),
    );
    expect(en.list.map((a) => a.title).join(' ')).toMatch(/MACD/);
    expect(en.list.every((a) => a.lang === 'en')).toBe(true);
    expect((await client.get('/api/art/list.do', { category: 'astrology' })).http).toBe(400);
  });

  it('has every site page in each of the five languages', async () => {
    for (const lang of CONTENT_LANGS) {
      for (const key of PAGE_KEYS) {
        const page = data(await client.withLang(lang).get<SitePage>('/api/site/getPage.do', { key }));
        expect(page.key).toBe(key);
        expect(page.lang, `${key} ${lang}`).toBe(lang);
        expect(page.content.length).toBeGreaterThan(100);
      }
    }
    const th = data(await client.get<SitePage>('/api/site/getPage.do', { key: 'privacy', lang: 'th' }));
    expect(/[\u0e00-\u0e7f]/.test(th.content)).toBe(true);
    const vi = data(await client.get<SitePage>('/api/site/getPage.do', { key: 'rules', lang: 'vi' }));
    expect(vi.content).toMatch(/giao dịch/);
    expect((await client.get('/api/site/getPage.do', { key: 'secrets' })).http).toBe(400);
    const version = data(await client.withLang('zh-TW').get<VersionInfo>('/api/site/getVersion.do'));
    expect(version.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(version.lang).toBe('zh-TW');
  });

  it('stores and answers Markdown as written: a script in content comes back as inert JSON text', async () => {
    const item = data(await news({}, 'en')).list[0]!;
    const hostile =
      '# Hello\n\n<script>window.__pwned = 1</script>\n\n<img src=x onerror="window.__pwned=2">\n\n[click](javascript:alert(1))';
    const file = path.join(tmp, 'hostile.md');
    writeFileSync(file, hostile);
    await op('content-edit', String(item.id), '--body-file', file, '--reason', 'sanitising test');
    const res = await client.get<NewsDetail>('/api/news/getDetail.do', { id: item.id });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(data(res).content).toBe(hostile);
  });

  it('seeds idempotently: a second seeding adds nothing, and a hidden version stays hidden', async () => {
    expect(await seedContent(station.app.station)).toBe(0);
    const before = data(await news({}, 'en'));
    const victim = before.list[1]!;
    await op('content-edit', String(victim.id), '--hidden', 'yes', '--reason', 'outdated');
    expect(await seedContent(station.app.station)).toBe(0);
    // Hiding one language's version leaves the item to its other language, marked as such.
    const after = data(await news({}, 'en'));
    expect(after.total).toBe(before.total);
    expect(after.list.map((n) => n.id)).not.toContain(victim.id);
    expect(after.list[1]!.lang).toBe('zh-CN');
    expect((await client.get('/api/news/getDetail.do', { id: victim.id })).http).toBe(404);
    await op('content-edit', String(victim.id), '--hidden', 'no', '--reason', 'back');
    expect(data(await news({}, 'en')).list[1]!.id).toBe(victim.id);
  });

  const notices = async (lang: string) =>
    data(
      await client.withLang(lang).get<Page<NoticeItem>>('/api/notice/getNoticeList.do', { pageSize: 100 }),
    );

  it('falls back to the nearest language written when the reader’s is missing: zh-TW to zh-CN, th and vi to en', async () => {
    const [tw, th, vi] = [await notices('zh-TW'), await notices('th'), await notices('vi')];
    // The newest notice, hidden in Traditional Chinese and in Thai by the operator.
    for (const hide of [tw.list[0]!, th.list[0]!])
      await op('content-edit', String(hide.id), '--hidden', 'yes', '--reason', 'retranslating');
    const [tw2, th2, vi2] = [await notices('zh-TW'), await notices('th'), await notices('vi')];
    expect([tw2.total, th2.total, vi2.total]).toEqual([tw.total, th.total, vi.total]);
    expect(tw2.list[0]).toMatchObject({ lang: 'zh-CN', publishedAt: tw.list[0]!.publishedAt });
    expect(th2.list[0]).toMatchObject({ lang: 'en', publishedAt: th.list[0]!.publishedAt });
    expect(vi2.list[0]).toEqual(vi.list[0]);
    expect(tw2.list.slice(1)).toEqual(tw.list.slice(1));
    for (const shown of [tw.list[0]!, th.list[0]!])
      await op('content-edit', String(shown.id), '--hidden', 'no', '--reason', 'retranslated');
    expect(await notices('th')).toEqual(th);
  });

  it('gives a database seeded before the new languages what it lacks, and keeps the operator’s edits', async () => {
    const db = station.app.station.db;
    const edited = (await notices('en')).list[0]!;
    await op('content-edit', String(edited.id), '--title', 'Edited by the operator', '--reason', 'wording');
    // A database from before: news, notices and articles in zh-CN and en only.
    const removed = await db
      .deleteFrom('content_items')
      .where('kind', '!=', 'page')
      .where('lang', 'in', ['zh-TW', 'th', 'vi'])
      .executeTakeFirst();
    expect(Number(removed.numDeletedRows)).toBeGreaterThanOrEqual(3 * 90);
    expect((await notices('th')).list.every((n) => n.lang === 'en')).toBe(true);

    expect(await seedContent(station.app.station)).toBe(Number(removed.numDeletedRows));
    for (const lang of ['zh-TW', 'th', 'vi'])
      expect(
        (await notices(lang)).list.every((n) => n.lang === lang),
        lang,
      ).toBe(true);
    expect((await notices('en')).list[0]).toMatchObject({ id: edited.id, title: 'Edited by the operator' });
    expect(await seedContent(station.app.station)).toBe(0);
    await op('content-edit', String(edited.id), '--title', edited.title, '--reason', 'wording back');
  });

  describe('operator command line', () => {
    it('edits an item only with a reason, and audits it', async () => {
      const notice = data(await client.withLang('en').get<Page<NoticeItem>>('/api/notice/getNoticeList.do'))
        .list[0]!;
      await expect(op('content-edit', String(notice.id), '--title', 'New title')).rejects.toThrow(/--reason/);
      await expect(op('content-edit', String(notice.id), '--reason', 'x')).rejects.toThrow(/nothing/);
      await expect(
        op('content-edit', String(notice.id), '--title', ' ', '--reason', 'blank'),
      ).rejects.toMatchObject({ code: 'VALIDATION' });
      const lines = await op(
        'content-edit',
        String(notice.id),
        '--title',
        'Maintenance tonight',
        '--reason',
        'typo',
      );
      expect(lines[0]).toMatch(/changed \(audited\)/);
      const detail = data(await client.get<NoticeDetail>('/api/notice/getDetail.do', { id: notice.id }));
      expect(detail.title).toBe('Maintenance tonight');
      const audit = await station.app.station.db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'content.edit')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(audit.actor).toBe('tester');
      expect(audit.reason).toBe('typo');
      expect(JSON.parse(audit.detail)).toMatchObject({ id: notice.id, fields: ['title'] });
      await expect(op('content-edit', '999999', '--title', 'x', '--reason', 'r')).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    });

    it('lists, shows and adds items', async () => {
      const listed = await op('content-list', 'article', '--lang', 'en', '--limit', '5');
      expect(listed[0]).toBe('5 article item(s)');
      const id = /^#(\d+)/.exec(listed[1]!)![1]!;
      const shown = await op('content-show', id);
      expect(shown[0]).toContain(`#${id} article en`);
      const file = path.join(tmp, 'new.md');
      writeFileSync(file, 'Body of a **new** item.');
      await expect(
        op(
          'content-add',
          'news',
          'fresh-news',
          '--lang',
          'en',
          '--category',
          'station',
          '--title',
          'Fresh',
          '--body-file',
          file,
        ),
      ).rejects.toThrow(/--reason/);
      await op(
        'content-add',
        'news',
        'fresh-news',
        '--lang',
        'en',
        '--category',
        'station',
        '--title',
        'Fresh',
        '--body-file',
        file,
        '--reason',
        'announce',
      );
      // Published at the station's (test) clock's now.
      const added = data(await news({ pageSize: 100 }, 'en')).list.find((n) => n.title === 'Fresh');
      expect(added).toMatchObject({ type: 'station', lang: 'en', publishedAt: station.clock.now() });
      await expect(
        op(
          'content-add',
          'news',
          'fresh-news',
          '--lang',
          'en',
          '--category',
          'station',
          '--title',
          'Again',
          '--body-file',
          file,
          '--reason',
          'dup',
        ),
      ).rejects.toMatchObject({ code: 'ALREADY_DONE' });
      await expect(
        op(
          'content-add',
          'news',
          'other',
          '--lang',
          'en',
          '--category',
          'rumours',
          '--title',
          'X',
          '--body-file',
          file,
          '--reason',
          'r',
        ),
      ).rejects.toMatchObject({ code: 'VALIDATION' });
      await expect(op('content-list', 'gossip')).rejects.toThrow(/kind/);
    });

    it('runs as `npm run station -- content-edit …` against the station’s database', async () => {
      const page = data(await client.get<SitePage>('/api/site/getPage.do', { key: 'about', lang: 'vi' }));
      const env = {
        ...process.env,
        DATA_DIR: station.config.dataDir,
        DATABASE_URL: station.config.databaseUrl ?? '',
        LOG_LEVEL: 'silent',
        USER: 'cli-operator',
      };
      const listed = await run('npx', ['tsx', 'server/cli/main.ts', 'content-list', 'page', '--lang', 'vi'], {
        env,
      });
      const line = listed.stdout.split('\n').find((l) => l.includes(' about '))!;
      const id = /^#(\d+)/.exec(line)![1]!;
      const file = path.join(tmp, 'about-vi.md');
      writeFileSync(file, `${page.content}\n\nCập nhật từ dòng lệnh.`);
      const bad = await run('npx', ['tsx', 'server/cli/main.ts', 'content-edit', id, '--body-file', file], {
        env,
      }).catch((e: { code: number; stderr: string }) => e);
      expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining('--reason') });
      const edited = await run(
        'npx',
        ['tsx', 'server/cli/main.ts', 'content-edit', id, '--body-file', file, '--reason', 'from the shell'],
        { env },
      );
      expect(edited.stdout).toContain('changed (audited)');
      const after = data(await client.get<SitePage>('/api/site/getPage.do', { key: 'about', lang: 'vi' }));
      expect(after.content).toMatch(/Cập nhật từ dòng lệnh\.$/);
      const help = await run('npx', ['tsx', 'server/cli/main.ts', 'help'], { env });
      expect(help.stdout).toContain('service-reply <userId>');
    }, 60_000);
  });

  describe('online customer service', () => {
    it('needs a session', async () => {
      expect(failure(await client.get('/user/service/messages.do')).code).toBe('NOT_LOGGED_IN');
      expect((await client.post('/user/service/send.do', { content: 'hi' })).http).toBe(401);
    });

    it('keeps a thread the operator answers; answers become read when the user opens the thread', async () => {
      const me = await register(client);
      expect(data(await me.client.get<ServiceMessage[]>('/user/service/messages.do'))).toEqual([]);
      expect(failure(await me.client.post('/user/service/send.do', { content: '   ' })).fields).toEqual({
        content: expect.any(String),
      });
      expect((await me.client.post('/user/service/send.do', { content: 'x'.repeat(1001) })).http).toBe(400);
      expect((await me.client.post('/user/service/send.do', {})).http).toBe(400);
      const sent = data(
        await me.client.post<ServiceMessage>('/user/service/send.do', {
          content: '  How do I enable VIP chip grabbing? <b>thanks</b>  ',
        }),
      );
      expect(sent).toMatchObject({
        sender: 'user',
        content: 'How do I enable VIP chip grabbing? <b>thanks</b>',
      });

      const inbox = await op('service-inbox');
      expect(inbox.some((l) => l.startsWith(`user ${me.user.id} `))).toBe(true);
      await expect(op('service-reply', String(me.user.id), 'Granted.')).rejects.toThrow(/--reason/);
      await op('service-reply', String(me.user.id), 'We have enabled it for you.', '--reason', 'ticket');
      expect((await op('service-inbox')).some((l) => l.startsWith(`user ${me.user.id} `))).toBe(false);

      const thread = data(await me.client.get<ServiceMessage[]>('/user/service/messages.do'));
      expect(thread.map((m) => [m.sender, m.content])).toEqual([
        ['user', 'How do I enable VIP chip grabbing? <b>thanks</b>'],
        ['staff', 'We have enabled it for you.'],
      ]);
      expect(thread[1]!.readAt).toBeNull();
      const again = data(await me.client.get<ServiceMessage[]>('/user/service/messages.do'));
      expect(again[1]!.readAt).not.toBeNull();
      const newer = data(
        await me.client.get<ServiceMessage[]>('/user/service/messages.do', { afterId: thread[0]!.id }),
      );
      expect(newer.map((m) => m.sender)).toEqual(['staff']);
      const shown = await op('service-thread', String(me.user.id));
      expect(shown[0]).toBe(`2 message(s) with user ${me.user.id}`);
      // Another user sees none of it.
      const other = await register(client);
      expect(data(await other.client.get<ServiceMessage[]>('/user/service/messages.do'))).toEqual([]);
      await expect(op('service-reply', '99999999', 'hello', '--reason', 'r')).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    });

    it('allows 30 messages an hour', async () => {
      const me = await register(client);
      for (let i = 0; i < 30; i++)
        data(await me.client.post('/user/service/send.do', { content: `message ${i}` }));
      expect(failure(await me.client.post('/user/service/send.do', { content: 'one more' })).code).toBe(
        'RATE_LIMITED',
      );
    });
  });
});

describe('a station started again on a database seeded before the new languages', () => {
  it('adds the Traditional Chinese, Thai and Vietnamese items at start (SQLite file in DATA_DIR)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'paperdesk-reseed-'));
    try {
      const before = await startStation({ db: 'sqlite', env: { DATA_DIR: dir } });
      try {
        await before.app.station.db
          .deleteFrom('content_items')
          .where('kind', '!=', 'page')
          .where('lang', 'in', ['zh-TW', 'th', 'vi'])
          .execute();
        const th = data(
          await api(before.url).withLang('th').get<Page<NoticeItem>>('/api/notice/getNoticeList.do'),
        );
        expect(th.list[0]!.lang).toBe('en');
      } finally {
        await before.close();
      }
      const after = await startStation({ db: 'sqlite', env: { DATA_DIR: dir } });
      try {
        for (const lang of ['zh-TW', 'th', 'vi']) {
          const reader = api(after.url).withLang(lang);
          const lists = [
            data(await reader.get<Page<NoticeItem>>('/api/notice/getNoticeList.do', { pageSize: 100 })).list,
            data(await reader.get<Page<NewsItem>>('/api/news/getNewsList.do', { pageSize: 100 })).list,
            data(await reader.get<Page<ArticleItem>>('/api/art/list.do', { pageSize: 100 })).list,
          ];
          for (const list of lists)
            expect(
              list.every((item) => item.lang === lang),
              lang,
            ).toBe(true);
        }
      } finally {
        await after.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
