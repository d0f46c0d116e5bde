/** Set by vite.config.ts `define`: names this build (a new build is a new id). */
declare const __PAPERDESK_BUILD_ID__: string;
/** Set by vite.config.ts `define`: seconds without any answer before "cannot connect" (PAPERDESK_UNREACHABLE_AFTER_S). */
declare const __PAPERDESK_UNREACHABLE_AFTER_S__: number;
