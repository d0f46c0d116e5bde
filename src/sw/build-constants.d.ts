/** Set by vite.config.ts `define` at build time. */
declare const __PAPERDESK_BUILD_ID__: string;
/** package.json's version: the API version the station reports in its ping. */
declare const __PAPERDESK_VERSION__: string;
/** The remote config files (spec §7), comma-separated; relative ones resolve against the app's origin. */
declare const __PAPERDESK_CONFIG_SOURCES__: string;
/** Set by vite.config.ts `define`: seconds without any answer before "cannot connect" (PAPERDESK_UNREACHABLE_AFTER_S). */
declare const __PAPERDESK_UNREACHABLE_AFTER_S__: number;
/** Days a stored quote, list or bar answer may be shown offline (PAPERDESK_STALE_AFTER_DAYS). */
declare const __PAPERDESK_STALE_AFTER_DAYS__: number;
/** The same for news and articles (PAPERDESK_ARTICLES_STALE_AFTER_DAYS). */
declare const __PAPERDESK_ARTICLES_STALE_AFTER_DAYS__: number;
