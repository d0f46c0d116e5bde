/**
 * The reading side's tables (migration 0006-content): news, notices, college articles and site pages,
 * each stored as Markdown in one language, and the customer-service message threads.
 */
import type { Generated } from 'kysely';

/** What a content row is: a news item, a notice (announcement), a college article or a site page. */
export type ContentKind = 'news' | 'notice' | 'article' | 'page';

export interface ContentItemsTable {
  id: Generated<number>;
  kind: ContentKind;
  /** Stable name of the item across its languages: every language's version of one news item shares it. */
  slug: string;
  /** zh-CN, en, zh-TW, th or vi. */
  lang: string;
  /** News type, college category, notice level or page key. */
  category: string;
  title: string;
  summary: string;
  /** Markdown, stored as written; the app renders it (sanitised), the station renders nothing. */
  body: string;
  source: string;
  published_at: number;
  sort_order: number;
  /** 1: hidden by the operator (kept, so re-seeding does not bring it back). */
  hidden: number;
  created_at: number;
  updated_at: number;
}

export interface ServiceMessagesTable {
  id: Generated<number>;
  user_id: number;
  sender: 'user' | 'staff';
  /** The operator who answered (staff messages only). */
  staff_name: string | null;
  content: string;
  created_at: number;
  /** When the other side read it: the user for staff messages, the back office for the user's. */
  read_at: number | null;
}
