import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** No text under 12 px (the accessibility pass): what the app's style sheets may set at the least. */
const MIN_PX = 12;
/** The root font size a rem (and, without knowing the parent, an em or a percentage) is measured against. */
const ROOT_PX = 16;
/** CSS's absolute size keywords at a 16 px `medium`, as Chromium computes them. */
const KEYWORD_PX: Record<string, number> = {
  'xx-small': 9,
  'x-small': 10,
  small: 13,
  medium: 16,
  large: 18,
  'x-large': 24,
  'xx-large': 32,
  'xxx-large': 48,
};
/** Values that set no size of their own. */
const NO_SIZE = new Set(['inherit', 'initial', 'unset', 'revert', 'revert-layer', 'larger']);

const appDir = resolve(import.meta.dirname, '../../src/app');

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return cssFiles(path);
    return entry.name.endsWith('.css') ? [path] : [];
  });
}

/** Comments blanked out (newlines kept, so line numbers still hold). */
function withoutComments(css: string): string {
  return css.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '));
}

/** Every custom property's value (`--name: value`) in the sheets, for `var(--name)` in a font size. */
function customProperties(sheets: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const css of sheets) {
    for (const match of withoutComments(css).matchAll(/(--[\w-]+)\s*:\s*([^;}]+)/g)) {
      found.set(match[1]!, match[2]!.trim());
    }
  }
  return found;
}

/** `var(--name, fallback)` replaced by the property's value (or the fallback), a few levels deep. */
function resolveVars(value: string, properties: ReadonlyMap<string, string>): string {
  let resolved = value;
  for (let depth = 0; depth < 5 && resolved.includes('var('); depth++) {
    resolved = resolved.replace(
      /var\(\s*(--[\w-]+)\s*(?:,\s*([^()]*))?\)/g,
      (_, name: string, fallback?: string) => properties.get(name) ?? fallback?.trim() ?? 'undefined',
    );
  }
  return resolved;
}

/** A size in px at a 16 px root; null when it cannot be worked out from the sheet alone. */
function sizeInPx(value: string): number | null {
  const v = value.trim().toLowerCase();
  const length = /^(-?\d*\.?\d+)(px|rem|em|%)$/.exec(v);
  if (length) {
    const n = Number(length[1]);
    if (length[2] === 'px') return n;
    if (length[2] === '%') return (n / 100) * ROOT_PX;
    return n * ROOT_PX;
  }
  if (v in KEYWORD_PX) return KEYWORD_PX[v]!;
  // clamp(), min() and max(): the smallest length they can come to.
  const bounded = /^(clamp|min|max)\((.*)\)$/.exec(v);
  if (bounded) {
    const sizes = bounded[2]!.split(',').map((part) => sizeInPx(part));
    if (sizes.some((size) => size === null)) return null;
    return bounded[1] === 'max' ? Math.max(...(sizes as number[])) : Math.min(...(sizes as number[]));
  }
  return null;
}

/** The size part of the `font` shorthand (`600 11px/1.2 system-ui` → `11px`); null for a keyword like `inherit`. */
function shorthandSize(value: string): string | null {
  const tokens = value.trim().split(/\s+/);
  if (tokens.length === 1 && NO_SIZE.has(tokens[0]!)) return null;
  for (const token of tokens) {
    const size = token.split('/')[0]!;
    if (/^-?\d*\.?\d+(px|rem|em|%)$/.test(size) || size in KEYWORD_PX) return size;
  }
  return null;
}

interface SmallText {
  line: number;
  declaration: string;
  /** The size it comes to in px, or null when it cannot be worked out (also refused: nobody can check it). */
  px: number | null;
}

/** Every `font-size` (and `font` shorthand size) in a sheet under MIN_PX, or not computable. */
function smallTexts(css: string, properties: ReadonlyMap<string, string> = new Map()): SmallText[] {
  const source = withoutComments(css);
  const out: SmallText[] = [];
  for (const match of source.matchAll(/(?<![\w-])(font-size|font)\s*:\s*([^;}]+)/g)) {
    const [declaration, property, raw] = match as unknown as [string, string, string];
    const value = resolveVars(raw.replace(/\s*!important\s*$/, ''), properties).trim();
    const size = property === 'font' ? shorthandSize(value) : NO_SIZE.has(value) ? null : value;
    if (size === null) continue;
    const px = sizeInPx(size);
    if (px === null || px < MIN_PX) {
      const line = source.slice(0, match.index).split('\n').length;
      out.push({ line, declaration: declaration.trim(), px });
    }
  }
  return out;
}

describe('no text under 12 px in the app', () => {
  it('finds sizes under 12 px in px, rem, em, keywords, the font shorthand and custom properties', () => {
    const css = [
      '.a { font-size: 11px; }',
      '.b { font-size: 0.7rem; }',
      '.c { font: 600 10px/1.2 system-ui; }',
      '.d { font-size: x-small; }',
      '.e { font-size: var(--tiny); }',
      '.f { font-size: calc(1rem - 6px); }',
      '.g { font-size: clamp(10px, 2vw, 16px); }',
    ].join('\n');
    expect(smallTexts(css, new Map([['--tiny', '11px']]))).toEqual([
      { line: 1, declaration: 'font-size: 11px', px: 11 },
      { line: 2, declaration: 'font-size: 0.7rem', px: 11.2 },
      { line: 3, declaration: 'font: 600 10px/1.2 system-ui', px: 10 },
      { line: 4, declaration: 'font-size: x-small', px: 10 },
      { line: 5, declaration: 'font-size: var(--tiny)', px: 11 },
      { line: 6, declaration: 'font-size: calc(1rem - 6px)', px: null },
      { line: 7, declaration: 'font-size: clamp(10px, 2vw, 16px)', px: null },
    ]);
  });

  it('lets 12 px and up, relative sizes at a 16 px root, inherited fonts and comments pass', () => {
    const css = [
      '.a { font-size: 12px; }',
      '.b { font-size: 0.9em; font-size: 1.1rem; }',
      '.c { font: inherit; }',
      '/* font-size: 9px was too small */',
      '.d { font-size: clamp(12px, 13px, 14px); --not-a-size: 2px; }',
    ].join('\n');
    expect(smallTexts(css)).toEqual([]);
  });

  it('sets no text under 12 px in any style sheet under src/app', () => {
    const files = cssFiles(appDir);
    expect(files.length).toBeGreaterThan(5);
    const sheets = files.map((file) => readFileSync(file, 'utf8'));
    const properties = customProperties(sheets);
    const found = files.flatMap((file, i) =>
      smallTexts(sheets[i]!, properties).map(
        ({ line, declaration, px }) =>
          `${relative(appDir, file)}:${line} ${declaration} (${px === null ? 'not computable' : `${px}px`})`,
      ),
    );
    expect(found).toEqual([]);
  });
});
