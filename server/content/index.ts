/**
 * The content area's one door (CONVENTIONS.md "A folder per area, a door per folder"): what other areas and
 * the station's root use of it. Other areas import it from here, never from its modules.
 */
export { addContent, replyToService, seedContent, updateContent, type ContentChange } from './content';
export { contentPlugin } from './routes/content';
export { siteSettingsPlugin } from './routes/site-settings';
export { sitePlugin } from './routes/site';
export {
  SITE_SETTING_KEYS,
  homeBannerPreload,
  isSiteSettingKey,
  setSiteSetting,
  siteSettings,
} from './site-settings';
