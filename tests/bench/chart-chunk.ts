/**
 * Bench: the gzip size of the chart chunk — the JavaScript a screen with a chart loads on top of the app
 * shell: the KlineChart chunk and the K-line worker (which holds echarts, as it draws the chart), with
 * whatever they import that the shell does not. Target ≤ 300 KB.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Relative static imports of one built chunk. */
function staticImports(dist: string, file: string): string[] {
  const code = readFileSync(join(dist, 'assets', file), 'utf8');
  return [...code.matchAll(/(?:^|[;\s}])import\s*(?:[\w*{}\s,$]+from\s*)?["']\.\/([^"']+\.js)["']/g)].map(
    (m) => m[1]!,
  );
}

export function benchChartChunk(dist: string, shellFiles: ReadonlySet<string>): void {
  const assets = readdirSync(join(dist, 'assets'));
  const roots = assets.filter((f) => /^(KlineChart-|kline\.worker-).*\.js$/.test(f));
  if (roots.length < 2) {
    console.log('\nchart chunk: KlineChart-*.js or kline.worker-*.js not found in dist/assets');
    return;
  }
  const shell = new Set([...shellFiles].map((url) => url.replace(/^.*\//, '')));
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file) || shell.has(file) || !existsSync(join(dist, 'assets', file))) continue;
    seen.add(file);
    queue.push(...staticImports(dist, file));
  }
  let raw = 0;
  let gz = 0;
  const rows: string[] = [];
  for (const file of [...seen].sort()) {
    const buf = readFileSync(join(dist, 'assets', file));
    const size = gzipSync(buf, { level: 9 }).length;
    raw += buf.length;
    gz += size;
    rows.push(`  ${file}: ${(size / 1024).toFixed(1)} KB gzip`);
  }
  console.log(
    `\nchart chunk (loaded only by screens with a chart): ${seen.size} files, ${(raw / 1024).toFixed(1)} KB raw, ` +
      `${(gz / 1024).toFixed(1)} KB gzip (target ≤ 300 KB: ${gz <= 300 * 1024 ? 'within' : 'OVER'})`,
  );
  for (const row of rows) console.log(row);
}
