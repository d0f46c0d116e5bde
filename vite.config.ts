import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

/** The test station in embedded mode (ARCHITECTURE "Settings"): the dev server forwards API calls there. */
const STATION = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    react(),
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
        globPatterns: ['**/*.{js,css,html,svg,png}'],
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
  },
});
