/** Set by vite.config.ts `define`: names this build (a new build is a new id). */
declare const __PAPERDESK_BUILD_ID__: string;
