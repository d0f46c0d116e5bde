/**
 * The first screen's texts (src/app/i18n/first-texts.ts): a visit to /home loads only those groups of the
 * dictionary. Every module the first screen loads (main.tsx and HomeScreen.tsx with their static imports)
 * must read only those groups, or its text would be blank until the rest arrives.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIRST_TEXT_GROUPS } from '../../src/app/i18n/first-texts';
import en from '../../locales/en/index';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SEEDS = ['src/app/main.tsx', 'src/app/routes/home/HomeScreen.tsx'];

function resolveImport(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** The app's own modules reached by static, non-type imports from the seeds. */
function firstScreenModules(): string[] {
  const seen = new Set<string>();
  const queue = SEEDS.map((seed) => path.join(ROOT, seed));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/^\s*import\s+(?!type\b)(?:[^'"]*?\bfrom\s*)?['"](\.[^'"]+)['"]/gm)) {
      const target = resolveImport(file, match[1]!);
      if (target && /\.tsx?$/.test(target) && target.startsWith(path.join(ROOT, 'src/'))) queue.push(target);
    }
  }
  return [...seen];
}

/** The dictionary groups a module reads: `LL.group` and `currentTranslations().group`. */
function groupsRead(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const groups = new Set<string>();
  for (const match of source.matchAll(/\b(?:LL|currentTranslations\(\))\.(\w+)/g)) groups.add(match[1]!);
  return [...groups];
}

describe('the first screen texts', () => {
  it('follows the first screen into the shell, the home screen and the API client', () => {
    const modules = firstScreenModules().map((file) => path.relative(ROOT, file));
    expect(modules).toEqual(
      expect.arrayContaining([
        'src/app/routes/RootLayout.tsx',
        'src/app/components/TabBar.tsx',
        'src/app/components/TestStationNotice.tsx',
        'src/app/api/client.ts',
      ]),
    );
  });

  it('every group the first screen reads comes with the first part of the dictionary', () => {
    const missing: string[] = [];
    for (const file of firstScreenModules()) {
      for (const group of groupsRead(file)) {
        if (!(FIRST_TEXT_GROUPS as readonly string[]).includes(group)) {
          missing.push(`${path.relative(ROOT, file)} reads LL.${group}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('names only groups the dictionary has, and leaves most of it for later', () => {
    const groups = Object.keys(en);
    for (const group of FIRST_TEXT_GROUPS) expect(groups).toContain(group);
    const size = (keep: (group: string) => boolean) =>
      JSON.stringify(Object.fromEntries(Object.entries(en).filter(([group]) => keep(group)))).length;
    const first = size((group) => (FIRST_TEXT_GROUPS as readonly string[]).includes(group));
    expect(first).toBeLessThan(size(() => true) / 2);
  });
});

describe('loading the dictionary in two parts', () => {
  it('a translation made before the rest arrived reads the full texts once it is in', async () => {
    const { loadAllTexts, loadFirstTexts } = await import('../../src/app/i18n/texts');
    const { i18nObject } = await import('../../locales/i18n-util');
    await loadFirstTexts('en');
    const LL = i18nObject('en');
    expect(LL.tabs.home()).toBe(en.tabs.home);
    // A later group before its part is in: empty, not a crash.
    expect(LL.wallet.amount()).toBe('');
    await loadAllTexts('en');
    expect(LL.wallet.amount()).toBe(en.wallet.amount);
    expect(i18nObject('en').wallet.amount()).toBe(en.wallet.amount);
  });
});
