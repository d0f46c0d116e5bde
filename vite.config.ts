import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { build as viteBuild, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

/** The test station in embedded mode (ARCHITECTURE "Settings"): the dev server forwards API calls there. */
const STATION = 'http://127.0.0.1:8080';

/**
 * The remote config files the service worker reads the API's base URL from (spec §7), in order,
 * comma-separated; relative ones are on the app's own origin. The defaults (public/config/) name the
 * app's own origin, so the embedded mode needs no setup.
 */
const CONFIG_SOURCES = process.env.PAPERDESK_CONFIG_SOURCES ?? '/config/api-1.json,/config/api-2.json';
/**
 * How long, in seconds, no source (the base URL, the config files) may answer before the app says "cannot
 * connect" and what it waits for: on a lossy mobile link one lost ping is not an outage.
 */
const UNREACHABLE_AFTER_S = Number(process.env.PAPERDESK_UNREACHABLE_AFTER_S ?? '20');
if (!Number.isFinite(UNREACHABLE_AFTER_S) || UNREACHABLE_AFTER_S < 0) {
  throw new Error('PAPERDESK_UNREACHABLE_AFTER_S must be a number of seconds (0 or more)');
}
/** A number of days from the environment, or the default. */
function days(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a number of days (more than 0)`);
  return value;
}
/**
 * How old a stored answer may be and still be shown offline, marked with its date (src/sw/strategies.ts):
 * quotes, lists and bars, then news and articles. Older ones are not passed off as current.
 */
const STALE_AFTER_DAYS = days('PAPERDESK_STALE_AFTER_DAYS', 7);
const ARTICLES_STALE_AFTER_DAYS = days('PAPERDESK_ARTICLES_STALE_AFTER_DAYS', 30);
/** Read by the station (server/platform/http/hardening.ts). */
const BUILD_FACTS_FILE = 'paperdesk-build.json';
/** Names this build: the service worker reports it, so an update can be told apart. */
const BUILD_ID = process.env.PAPERDESK_BUILD_ID ?? new Date().toISOString();
const VERSION = (
  JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** Files worth compressing: text formats the station serves (not PNGs, which are already compressed). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;

/** Every file under `dir`, recursively. */
function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

/**
 * Writes a brotli (.br) and a gzip (.gz) copy next to each text file of the build, once the whole build
 * is written (the service worker included), so the station serves them as they are (server/platform/http/static.ts)
 * instead of compressing on every request. A copy that would not be smaller is not written.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'paperdesk-precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        for (const file of listFiles(outDir)) {
          if (!COMPRESSIBLE.test(file)) continue;
          const raw = readFileSync(file);
          const br = brotliCompressSync(raw, {
            params: {
              [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
              [zlib.BROTLI_PARAM_SIZE_HINT]: statSync(file).size,
            },
          });
          const gz = gzipSync(raw, { level: 9 });
          if (br.length < raw.length) writeFileSync(`${file}.br`, br);
          if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
        }
      },
    },
  };
}

/**
 * Writes `paperdesk-build.json` beside the app: the config sources on other hosts, which the station that
 * serves this build lets the page and the service worker fetch (its Content-Security-Policy, built from this
 * file and its CORS_ORIGINS in server/platform/http/hardening.ts).
 */
function buildFacts(): Plugin {
  return {
    name: 'paperdesk-build-facts',
    apply: 'build',
    generateBundle() {
      const remote = CONFIG_SOURCES.split(',')
        .map((source) => source.trim())
        .filter((source) => /^https?:\/\//.test(source));
      this.emitFile({
        type: 'asset',
        fileName: BUILD_FACTS_FILE,
        source: `${JSON.stringify({ configSources: remote, scriptHashes: [FIRST_FRAME_SCRIPT_HASH] }, null, 2)}\n`,
      });
    },
  };
}

/**
 * The first screen: /home, the start URL (spec §3), in the default language. With the entry, their static
 * imports and the stylesheet, it is what the service worker precaches before it takes control; the page
 * has just loaded the same files, so the install is served mostly from the browser's cache, and on a slow
 * first visit the worker controls the page within seconds. Every other built file (the other screens, the
 * other languages, the chart worker, the icons) is cached as it is used and fetched once the worker
 * controls the page (src/sw/shell.ts).
 */
const FIRST_SCREEN_MODULES = ['src/app/routes/home/HomeScreen.tsx', 'src/app/i18n/generated/zh-CN.first.ts'];

/** The built files of the first screens (see FIRST_SCREEN_MODULES), filled in when the bundle is written. */
const firstScreenFiles = new Set<string>();

/**
 * Works out FIRST_SCREEN_MODULES' built files from the bundle graph: the entry chunk and each first
 * screen's chunk, with every chunk they import statically, and every stylesheet. A first-screen module that
 * is missing from the bundle (renamed or moved) stops the build rather than quietly precaching less.
 */
function firstScreens(): Plugin {
  let root = process.cwd();
  return {
    name: 'paperdesk-first-screens',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    // After Vite's own hooks: the one stylesheet is emitted in theirs.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
        const seeds = chunks.filter((chunk) => chunk.isEntry);
        for (const module of FIRST_SCREEN_MODULES) {
          const id = path.resolve(root, module);
          const chunk =
            chunks.find((c) => c.facadeModuleId === id) ?? chunks.find((c) => c.moduleIds.includes(id));
          if (!chunk)
            throw new Error(`first screen ${module} is not in the bundle: update FIRST_SCREEN_MODULES`);
          seeds.push(chunk);
        }
        firstScreenFiles.clear();
        const queue = [...seeds];
        while (queue.length > 0) {
          const chunk = queue.pop()!;
          if (firstScreenFiles.has(chunk.fileName)) continue;
          firstScreenFiles.add(chunk.fileName);
          for (const name of chunk.imports) {
            const next = bundle[name];
            if (next?.type === 'chunk') queue.push(next);
          }
        }
        for (const item of Object.values(bundle)) {
          if (item.type === 'asset' && item.fileName.endsWith('.css')) firstScreenFiles.add(item.fileName);
        }
      },
    },
  };
}

/** Build constants for the app, the service worker and the build-time render alike. */
const DEFINE = {
  __PAPERDESK_BUILD_ID__: JSON.stringify(BUILD_ID),
  __PAPERDESK_VERSION__: JSON.stringify(VERSION),
  __PAPERDESK_CONFIG_SOURCES__: JSON.stringify(CONFIG_SOURCES),
  __PAPERDESK_UNREACHABLE_AFTER_S__: JSON.stringify(UNREACHABLE_AFTER_S),
  __PAPERDESK_STALE_AFTER_DAYS__: JSON.stringify(STALE_AFTER_DAYS),
  __PAPERDESK_ARTICLES_STALE_AFTER_DAYS__: JSON.stringify(ARTICLES_STALE_AFTER_DAYS),
};

/**
 * Runs in <head> before the first paint, on every page: what the device stored that the HTML cannot know
 * (src/app/state/persist.ts keeps each value as JSON under `paperdesk.<name>`). The black theme is set at
 * once; another language than the HTML's, or a held session, is marked for the first frame's style
 * (src/app/prerender/render-shell.tsx). The station allows exactly this script by its hash (BUILD_FACTS_FILE).
 */
const FIRST_FRAME_SCRIPT =
  "(function(){var d=document.documentElement;try{var r=function(k){return JSON.parse(localStorage.getItem('paperdesk.'+k)||'null')};" +
  "var l=new URLSearchParams(location.search).get('lang')||r('lang'),s=r('session');" +
  "if(r('theme')==='black')d.dataset.theme='black';if(l&&l!==d.lang)d.dataset.firstFrameLanguage='other';" +
  "if(s&&s.token)d.dataset.firstFrameSession='in'}catch(e){}})()";
/** As a Content-Security-Policy source. */
const FIRST_FRAME_SCRIPT_HASH = `'sha256-${createHash('sha256').update(FIRST_FRAME_SCRIPT).digest('base64')}'`;

/** Puts FIRST_FRAME_SCRIPT at the top of index.html's <head> (and so of every prerendered page). */
function headScript(): Plugin {
  return {
    name: 'paperdesk-head-script',
    transformIndexHtml: {
      order: 'pre',
      handler: (html) => html.replace('<head>', `<head>\n    <script>${FIRST_FRAME_SCRIPT}</script>`),
    },
  };
}

/** What the build-time render (src/app/prerender/render-shell.tsx) offers. */
interface FirstFrameRenderer {
  PRERENDERED_PATHS: readonly string[];
  renderFirstFrame(path: string): Promise<{ markup: string; title: string }>;
  firstFrameStyle(): string;
}

/** Where each prerendered page goes in the build, by its path: `/home` → `shell/home.html` (read by the station and the service worker). */
const shellFile = (appPath: string) => `shell${appPath}.html`;

/**
 * The first paint without JavaScript: each tab screen's first frame (render-shell.tsx, rendered in node from a
 * server build of the app's own components) written into a copy of index.html, with the stylesheet inlined so
 * nothing blocks the paint. The station answers those paths with their copy (server/platform/http/static.ts),
 * the service worker too, offline (src/sw/shell.ts); main.tsx replaces the markup in its first commit.
 * index.html gets the first frame's head style too, for the other screens' boot screen.
 */
function prerenderShells(): Plugin {
  let root = process.cwd();
  return {
    name: 'paperdesk-prerender-shells',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        const outDir = mkdtempSync(path.join(tmpdir(), 'paperdesk-first-frames-'));
        try {
          await viteBuild({
            configFile: false,
            root,
            logLevel: 'warn',
            publicDir: false,
            define: DEFINE,
            plugins: [
              react(),
              {
                // The service worker is not registered at build time; the shell's update prompt imports its helper.
                name: 'paperdesk-no-sw-register',
                resolveId: (id) => (id === 'virtual:pwa-register' ? '\0pwa-register' : null),
                load: (id) =>
                  id === '\0pwa-register' ? 'export const registerSW = () => () => Promise.resolve();' : null,
              },
            ],
            // Everything bundled, so the render runs from a temporary directory.
            ssr: { noExternal: true },
            build: { ssr: 'src/app/prerender/render-shell.tsx', outDir, emptyOutDir: true, minify: false },
          });
          const renderer = (await import(
            pathToFileURL(path.join(outDir, 'render-shell.js')).href
          )) as FirstFrameRenderer;
          const index = bundle['index.html'];
          const stylesheet = Object.values(bundle).find(
            (item) => item.type === 'asset' && item.fileName.endsWith('.css'),
          );
          if (index?.type !== 'asset' || stylesheet?.type !== 'asset')
            throw new Error('prerender: the build has no index.html or no stylesheet');
          const style = `<style>${renderer.firstFrameStyle()}</style>`;
          const template = String(index.source).replace('</head>', `    ${style}\n  </head>`);
          index.source = template;
          const rootDiv = /<div id="root">[\s\S]*?<\/div>\s*<\/div>(?=\s*<noscript>)/;
          if (!rootDiv.test(template)) throw new Error('prerender: index.html has no #root boot screen');
          for (const appPath of renderer.PRERENDERED_PATHS) {
            const frame = await renderer.renderFirstFrame(appPath);
            const html = template
              .replace(rootDiv, `<div id="root">${frame.markup}</div>`)
              .replace(/<title>[^<]*<\/title>/, `<title>${frame.title}</title>`)
              // The stylesheet in the page: the first paint waits for no other request.
              .replace(
                /<link rel="(?:preload|stylesheet)"[^>]*href="[^"]+\.css"[^>]*>/,
                `<style>${String(stylesheet.source)}</style>`,
              );
            this.emitFile({ type: 'asset', fileName: shellFile(appPath), source: html });
          }
        } finally {
          rmSync(outDir, { recursive: true, force: true });
        }
      },
    },
  };
}

/**
 * The first paint does not wait for the stylesheet: index.html's inline boot screen paints at once, and the
 * app's stylesheet becomes a preload that main.tsx applies, and waits for, before React's first render.
 */
function nonBlockingStylesheet(): Plugin {
  return {
    name: 'paperdesk-non-blocking-stylesheet',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html) =>
        html.replace(
          /<link rel="stylesheet" crossorigin href="([^"]+\.css)">/g,
          '<link rel="preload" as="style" crossorigin href="$1" data-app-stylesheet>',
        ),
    },
  };
}

export default defineConfig({
  // Read by the service worker (src/sw/build-constants.d.ts); the plugin builds it with these too.
  define: DEFINE,
  plugins: [
    react(),
    headScript(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      // main.tsx registers through virtual:pwa-register, so nothing is injected into index.html.
      injectRegister: false,
      injectManifest: {
        // CONVENTIONS "known traps": the service worker must build as a classic script.
        rollupFormat: 'iife',
        // The public/ icons match here; the plugin adds the manifest itself.
        globPatterns: ['**/*.{js,css,html,svg,png,webp,avif}'],
        // Built files outside the first screens are marked `later`: the service worker caches them after it
        // controls the page, not before (src/sw/shell.ts).
        manifestTransforms: [
          (entries) => ({
            manifest: entries.map((entry) =>
              entry.url !== 'index.html' &&
              !entry.url.startsWith('shell/') &&
              !firstScreenFiles.has(entry.url)
                ? { ...entry, later: true }
                : entry,
            ),
            warnings: firstScreenFiles.size === 0 ? ['the first screens were not worked out'] : [],
          }),
        ],
      },
      includeManifestIcons: false,
      manifest: {
        name: 'PaperDesk',
        short_name: 'PaperDesk',
        description:
          'Paper-trading brokerage: practise trading with play money. A test station, no real trading.',
        lang: 'zh-CN',
        start_url: '/home',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        theme_color: '#c9241b',
        background_color: '#f4f5f7',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
    }),
    firstScreens(),
    prerenderShells(),
    buildFacts(),
    nonBlockingStylesheet(),
    precompress(),
  ],
  worker: {
    format: 'es',
  },
  server: {
    proxy: {
      // /user is also an app route (the personal centre), so only /user/… goes to the station.
      '^/api/': { target: STATION, changeOrigin: false },
      '^/user/': { target: STATION, changeOrigin: false },
      '^/code/': { target: STATION, changeOrigin: false },
    },
  },
  build: {
    target: 'es2022',
    // One stylesheet for the whole app (about 4 KB gzip more or less): a screen's own stylesheet, added
    // when its chunk loads, makes the browser recompute the style and layout of the whole page in the
    // same task as the route change (measured as the longest task when the stock detail screen opens).
    cssCodeSplit: false,
    // Every browser the es2022 target reaches fetches the entry's imports without Vite's modulepreload
    // polyfill; one that ignores modulepreload still loads them, when the entry asks.
    modulePreload: { polyfill: false },
    // The libraries every first visit runs (React, the router, Query, legend-state, typesafe-i18n) in one
    // chunk: left to the automatic splitting they were spread over four chunks beside the app's own modules,
    // and each chunk is compressed on its own (1.3 KB gzip more for /home). The chunk also stays the same
    // from one app release to the next, as long as the libraries do.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'shell-libraries',
              test: /node_modules[\\/](react|react-dom|scheduler|use-sync-external-store|@tanstack[\\/](react-router|router-core|history|store|react-store|react-query|query-core)|@legendapp[\\/]state|typesafe-i18n)[\\/]/,
            },
          ],
        },
      },
    },
  },
});
