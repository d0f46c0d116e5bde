import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, existsSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'paperdesk-i18n-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `npm run i18n` as a fresh clone runs it: the locales without any generated file. */
function freshClone(): void {
  for (const name of [
    'locales',
    'scripts/i18n-seed.mjs',
    'scripts/i18n-split.ts',
    'src/app/i18n/first-texts.ts',
    '.typesafe-i18n.json',
    'package.json',
  ]) {
    cpSync(join(root, name), join(work, name), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'));
  for (const generated of [
    'i18n-types.ts',
    'i18n-util.ts',
    'i18n-util.async.ts',
    'i18n-util.sync.ts',
    'i18n-react.tsx',
  ]) {
    const path = join(work, 'locales', generated);
    if (existsSync(path)) unlinkSync(path);
  }
}

describe('npm start on a fresh clone', () => {
  it('generates the locales without an error-looking line', { timeout: 60_000 }, () => {
    freshClone();
    const script = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.i18n as string;
    const output = execFileSync('bash', ['-c', `${script} 2>&1`], {
      cwd: work,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${join(root, 'node_modules/.bin')}:${process.env.PATH ?? ''}` },
    });
    expect(output).not.toMatch(/error/i);
    // And the generated types are the real ones, not the placeholder the first run starts from.
    expect(readFileSync(join(work, 'locales/i18n-types.ts'), 'utf8')).toBe(
      readFileSync(join(root, 'locales/i18n-types.ts'), 'utf8'),
    );
  });

  it('prints a short build summary, then the station (whose stdout is the URL)', () => {
    const start = readFileSync(join(root, 'scripts/start.sh'), 'utf8');
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: { start: string };
    };
    expect(pkg.scripts.start).toBe('bash scripts/start.sh');
    // The build's output is kept back unless it fails; the last command is the station itself.
    expect(start).toMatch(/npm run --silent build >"\$log" 2>&1/);
    expect(start.trim().split('\n').at(-1)).toBe('exec npx tsx server/main.ts');
  });
});
