import { createElement, Fragment, isValidElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { loadSeedContent } from '../../server/content/content';
import { parseInline, parseMarkdown, renderMarkdown, safeHref } from '../../src/app/routes/content/markdown';

/** Every element type in a rendered tree. */
function elementTypes(nodes: ReactNode[]): string[] {
  const types: string[] = [];
  for (const node of nodes) {
    if (!isValidElement<{ children?: ReactNode }>(node)) continue;
    types.push(typeof node.type === 'string' ? node.type : node.type === Fragment ? 'text' : 'component');
    const children = node.props.children;
    types.push(...elementTypes(Array.isArray(children) ? children : [children]));
  }
  return types;
}

const html = (source: string) =>
  renderToStaticMarkup(createElement(Fragment, null, ...renderMarkdown(source)));

describe('the app’s Markdown renderer', () => {
  it('renders headings (one level down), emphasis, code, lists, quotes, rules and tables', () => {
    const out = html(
      [
        '# Title',
        '## Section',
        'Some **bold** and *italic* with `code`.',
        'A second line of the same paragraph.',
        '',
        '- one',
        '- two',
        '',
        '1. first',
        '2. second',
        '',
        '> quoted **text**',
        '',
        '---',
        '',
        '| a | b |',
        '|---|---|',
        '| 1 | **2** |',
        '',
        '```',
        'x = 1 < 2',
        '```',
      ].join('\n'),
    );
    expect(out).toContain('<h2>Title</h2><h3>Section</h3>');
    expect(out).toContain(
      '<p>Some <strong>bold</strong> and <em>italic</em> with <code>code</code>. A second line of the same paragraph.</p>',
    );
    expect(out).toContain('<ul><li>one</li><li>two</li></ul>');
    expect(out).toContain('<ol><li>first</li><li>second</li></ol>');
    expect(out).toContain('<blockquote><p>quoted <strong>text</strong></p></blockquote>');
    expect(out).toContain('<hr/>');
    expect(out).toContain(
      '<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td><strong>2</strong></td></tr></tbody></table>',
    );
    expect(out).toContain('<pre><code>x = 1 &lt; 2</code></pre>');
  });

  it('never produces a script element: HTML in content is shown as text', () => {
    const out = html(
      '<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n**<script>bold()</script>**\n\n| <script>x</script> |\n|---|\n| <iframe src="//evil"> |',
    );
    expect(out).not.toMatch(/<script|<img|<iframe|<[a-z]+[^>]*\son\w+=/i);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    const types = elementTypes(renderMarkdown('<script>alert(1)</script>\n\n# <script>x</script>'));
    expect(types).not.toContain('script');
    expect(new Set(types)).toEqual(new Set(['p', 'h2', 'text']));
    expect(out).toContain('&lt;img src=x onerror=&quot;alert(2)&quot;&gt;');
  });

  it('keeps only safe link addresses', () => {
    expect(safeHref('https://example.com/a')).toBe('https://example.com/a');
    expect(safeHref('/college?id=3')).toBe('/college?id=3');
    expect(safeHref('mailto:help@example.com')).toBe('mailto:help@example.com');
    for (const bad of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,x',
      '//evil.com',
      '/\\evil.com',
      'vbscript:x',
    ])
      expect(safeHref(bad), bad).toBeNull();
    const out = html('[safe](https://example.com) [inside](/about) [evil](javascript:alert(1))');
    expect(out).toContain(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">safe</a>',
    );
    expect(out).toContain('<a href="/about">inside</a>');
    expect(out).toContain(' evil');
    expect(out).not.toMatch(/javascript:/i);
  });

  it('reads escapes, lone asterisks and unclosed marks as text', () => {
    expect(parseInline('\\*ST and *ST shares')).toEqual([{ t: 'text', v: '*ST and *ST shares' }]);
    expect(parseInline('3 * 4 = 12')).toEqual([{ t: 'text', v: '3 * 4 = 12' }]);
    expect(parseInline('`open')).toEqual([{ t: 'text', v: '`open' }]);
    expect(parseMarkdown('')).toEqual([]);
  });

  it('renders every starter item without losing its text to markup', () => {
    for (const item of loadSeedContent()) {
      const out = html(item.body);
      expect(out, `${item.kind}/${item.slug}/${item.lang}`).not.toMatch(/<script/i);
      // No stray Markdown marks left over from a construct the renderer did not understand.
      expect(out, `${item.kind}/${item.slug}/${item.lang}`).not.toMatch(/\*\*|^#|\n#/);
    }
  });
});
