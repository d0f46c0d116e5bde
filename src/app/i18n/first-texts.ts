/**
 * The dictionary's top-level groups that the first screen (/home and the shell around every screen: notice
 * strip, header, tab bar, connection and update strips, the login prompt, the API client's messages) reads.
 * They come with the first visit; every other group comes with the first other screen, so a visit to /home
 * does not download the whole product's text in its language (ARCHITECTURE "the shell loads fast").
 * tests/unit/app-first-texts.test.ts follows the first screen's imports and fails if one of them reads a
 * group that is not listed here.
 */
export const FIRST_TEXT_GROUPS = [
  'app',
  'common',
  'connection',
  'content',
  'errors',
  'home',
  'loggedOut',
  'loginPrompt',
  'notice',
  'outcome',
  'priceMove',
  'tabs',
  'titles',
  'update',
] as const;
