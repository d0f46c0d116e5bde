/** Han characters: a text a user typed in Chinese (a bank's name, a branch). */
const HAN = /\p{Script=Han}/u;

/**
 * A text the user typed (a bank's name or branch, a payee), shown as typed: marked `lang="zh-CN"` when it is
 * written in Chinese, so screen readers, fonts and the language check know it is not the page's language.
 */
export function UserText({ text }: { text: string }) {
  return HAN.test(text) ? <span lang="zh-CN">{text}</span> : <>{text}</>;
}
