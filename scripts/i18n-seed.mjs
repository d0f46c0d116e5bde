// typesafe-i18n finds the base locale's compiled file only when the locale imports the generated
// locales/i18n-types.ts; on a fresh clone that file is not generated yet, so the generator prints
// "ERROR … BaseTranslation" (and then generates correctly). A placeholder with the same export lets the
// first run read the locale quietly; the generator overwrites it at once.
import { existsSync, writeFileSync } from 'node:fs';

const types = new URL('../locales/i18n-types.ts', import.meta.url);
if (!existsSync(types)) {
  writeFileSync(types, "export type { BaseTranslation } from 'typesafe-i18n';\n");
}
