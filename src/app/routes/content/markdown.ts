/**
 * A small, safe Markdown renderer for the station's content (news, notices, college articles, site pages).
 * No Markdown library is among the app's packages, and the content needs only a plain subset, so this
 * parses it into a tree and renders React elements: headings, paragraphs, bold, italic, inline code, code
 * blocks, lists, quotes, rules, tables and links.
 *
 * Safe by construction: every character of the source ends up in a text node (React escapes it), no
 * HTML is ever interpreted (a `<script>` in content shows as text), no `dangerouslySetInnerHTML`, and a
 * link keeps its address only when it is https/http, mailto or a path on this site.
 */
import { createElement, Fragment, type ReactNode } from 'react';
import { safeHref } from '../../components/safe-href';

export { safeHref };

export type Inline =
  | { t: 'text'; v: string }
  | { t: 'strong'; c: Inline[] }
  | { t: 'em'; c: Inline[] }
  | { t: 'code'; v: string }
  | { t: 'link'; href: string; c: Inline[] };

export type Block =
  | { t: 'heading'; level: 2 | 3 | 4; c: Inline[] }
  | { t: 'paragraph'; c: Inline[] }
  | { t: 'list'; ordered: boolean; items: Inline[][] }
  | { t: 'quote'; c: Block[] }
  | { t: 'code'; v: string }
  | { t: 'rule' }
  | { t: 'table'; head: Inline[][]; rows: Inline[][][] };

/** Inline Markdown: `code`, **strong**, *em*, [text](address), and \\-escapes. */
export function parseInline(src: string): Inline[] {
  const out: Inline[] = [];
  let text = '';
  const flush = () => {
    if (text !== '') out.push({ t: 'text', v: text });
    text = '';
  };
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (ch === '\\' && i + 1 < src.length && /[\\`*_[\]()#+\-.!|>]/.test(src[i + 1]!)) {
      text += src[i + 1];
      i += 2;
      continue;
    }
    if (ch === '`') {
      const end = src.indexOf('`', i + 1);
      if (end > i) {
        flush();
        out.push({ t: 'code', v: src.slice(i + 1, end) });
        i = end + 1;
        continue;
      }
    }
    if (ch === '*' && src[i + 1] === '*') {
      const end = src.indexOf('**', i + 2);
      if (end > i + 2) {
        flush();
        out.push({ t: 'strong', c: parseInline(src.slice(i + 2, end)) });
        i = end + 2;
        continue;
      }
    }
    if (ch === '*' && src[i + 1] !== ' ' && src[i + 1] !== undefined) {
      const end = src.indexOf('*', i + 1);
      if (end > i + 1 && src[end - 1] !== ' ') {
        flush();
        out.push({ t: 'em', c: parseInline(src.slice(i + 1, end)) });
        i = end + 1;
        continue;
      }
    }
    if (ch === '[') {
      const close = src.indexOf('](', i + 1);
      const end = close > i ? src.indexOf(')', close + 2) : -1;
      if (close > i && end > close) {
        const label = parseInline(src.slice(i + 1, close));
        const href = safeHref(src.slice(close + 2, end));
        flush();
        // An address that is not safe drops the link and keeps its words.
        if (href) out.push({ t: 'link', href, c: label });
        else out.push(...label);
        i = end + 1;
        continue;
      }
    }
    text += ch;
    i += 1;
  }
  flush();
  return out;
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^(?:-{3,}|\*{3,}|_{3,})\s*$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d{1,9}[.)]\s+(.*)$/;
const FENCE = /^\s*(```|~~~)/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/;

function cells(line: string): string[] {
  let row = line.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1);
  // A "\|" is a literal bar inside a cell.
  return row.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

function startsBlock(line: string, next: string | undefined): boolean {
  return (
    HEADING.test(line) ||
    RULE.test(line) ||
    BULLET.test(line) ||
    NUMBERED.test(line) ||
    FENCE.test(line) ||
    line.trimStart().startsWith('>') ||
    (line.includes('|') && next !== undefined && TABLE_SEPARATOR.test(next) && next.includes('-'))
  );
}

/** Block Markdown into a tree; headings shift down one level (the screen's title is the h1). */
export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === '') {
      i += 1;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const body: string[] = [];
      i += 1;
      while (i < lines.length && !lines[i]!.trimStart().startsWith(fence[1]!)) body.push(lines[i++]!);
      i += 1;
      blocks.push({ t: 'code', v: body.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const level = Math.min(4, heading[1]!.length + 1) as 2 | 3 | 4;
      blocks.push({ t: 'heading', level, c: parseInline(heading[2]!) });
      i += 1;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ t: 'rule' });
      i += 1;
      continue;
    }
    if (line.trimStart().startsWith('>')) {
      const quoted: string[] = [];
      while (i < lines.length && lines[i]!.trimStart().startsWith('>'))
        quoted.push(lines[i++]!.trimStart().replace(/^>\s?/, ''));
      blocks.push({ t: 'quote', c: parseMarkdown(quoted.join('\n')) });
      continue;
    }
    const next = lines[i + 1];
    if (line.includes('|') && next !== undefined && TABLE_SEPARATOR.test(next) && next.includes('-')) {
      const head = cells(line).map(parseInline);
      const rows: Inline[][][] = [];
      i += 2;
      while (i < lines.length && lines[i]!.includes('|') && lines[i]!.trim() !== '')
        rows.push(cells(lines[i++]!).map(parseInline));
      blocks.push({ t: 'table', head, rows });
      continue;
    }
    const ordered = NUMBERED.test(line);
    if (ordered || BULLET.test(line)) {
      const pattern = ordered ? NUMBERED : BULLET;
      const items: string[] = [];
      while (i < lines.length) {
        const current = lines[i]!;
        const item = pattern.exec(current);
        if (item) items.push(item[1]!);
        else if (current.trim() !== '' && /^\s+/.test(current) && items.length > 0)
          items[items.length - 1] += ` ${current.trim()}`;
        else break;
        i += 1;
      }
      blocks.push({ t: 'list', ordered, items: items.map(parseInline) });
      continue;
    }
    const paragraph: string[] = [line.trim()];
    i += 1;
    while (i < lines.length && lines[i]!.trim() !== '' && !startsBlock(lines[i]!, lines[i + 1]))
      paragraph.push(lines[i++]!.trim());
    blocks.push({ t: 'paragraph', c: parseInline(paragraph.join(' ')) });
  }
  return blocks;
}

const h = createElement;

function renderInline(nodes: Inline[]): ReactNode[] {
  return nodes.map((node, key) => {
    switch (node.t) {
      case 'text':
        return h(Fragment, { key }, node.v);
      case 'strong':
        return h('strong', { key }, ...renderInline(node.c));
      case 'em':
        return h('em', { key }, ...renderInline(node.c));
      case 'code':
        return h('code', { key }, node.v);
      case 'link':
        return node.href.startsWith('/')
          ? h('a', { key, href: node.href }, ...renderInline(node.c))
          : h(
              'a',
              { key, href: node.href, target: '_blank', rel: 'noopener noreferrer nofollow' },
              ...renderInline(node.c),
            );
    }
  });
}

export function renderBlocks(blocks: Block[]): ReactNode[] {
  return blocks.map((block, key) => {
    switch (block.t) {
      case 'heading':
        return h(`h${block.level}`, { key }, ...renderInline(block.c));
      case 'paragraph':
        return h('p', { key }, ...renderInline(block.c));
      case 'list':
        return h(
          block.ordered ? 'ol' : 'ul',
          { key },
          ...block.items.map((item, i) => h('li', { key: i }, ...renderInline(item))),
        );
      case 'quote':
        return h('blockquote', { key }, ...renderBlocks(block.c));
      case 'code':
        return h('pre', { key }, h('code', null, block.v));
      case 'rule':
        return h('hr', { key });
      case 'table':
        return h(
          'div',
          { key, className: 'md-table' },
          h(
            'table',
            null,
            h(
              'thead',
              null,
              h('tr', null, ...block.head.map((c, i) => h('th', { key: i }, ...renderInline(c)))),
            ),
            h(
              'tbody',
              null,
              ...block.rows.map((row, r) =>
                h('tr', { key: r }, ...row.map((c, i) => h('td', { key: i }, ...renderInline(c)))),
              ),
            ),
          ),
        );
    }
  });
}

/** Markdown source → React elements (sanitised: see the file comment). */
export function renderMarkdown(source: string): ReactNode[] {
  return renderBlocks(parseMarkdown(source));
}
