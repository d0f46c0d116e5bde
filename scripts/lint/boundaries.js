/**
 * The code's boundaries as lint rules (CONVENTIONS.md "Shape", ARCHITECTURE.md "Layout"):
 * - `src/shared` is pure and shared by every runtime: it imports nothing outside itself;
 * - the station never imports the app's runtimes (`src/app`, `src/sw`, `src/worker`, `src/db`).
 * Only relative imports are resolved; a bare import from `src/shared` (a package) is refused too.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

const APP_RUNTIMES = ['src/app/', 'src/sw/', 'src/worker/', 'src/db/'];

/** The repository-relative path an import specifier names (with its extension when a file has one). */
function resolveSpecifier(fromFile, specifier, root) {
  const base = path.resolve(path.dirname(fromFile), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return path.relative(root, candidate);
  }
  return path.relative(root, base);
}

/** The message for an import of `target` from `file`, or null when the import keeps the boundaries. */
export function boundaryViolation(file, target, isPackage) {
  if (file.startsWith('src/shared/')) {
    if (isPackage) return 'src/shared is pure: it imports no package';
    if (!target.startsWith('src/shared/')) return `src/shared imports nothing outside itself (${target})`;
    return null;
  }
  if (isPackage) return null;
  if (file.startsWith('server/') && APP_RUNTIMES.some((dir) => target.startsWith(dir)))
    return `the station never imports the app's runtimes (${target})`;
  return null;
}

const importsRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Keeps src/shared pure and the station out of the app runtimes' },
    schema: [],
  },
  create(context) {
    const root = context.cwd;
    const file = path.relative(root, context.filename);
    if (!file.startsWith('src/shared/') && !file.startsWith('server/')) return {};
    const check = (node, source) => {
      if (!source || typeof source.value !== 'string') return;
      const specifier = source.value;
      const isPackage = !specifier.startsWith('.');
      if (isPackage && specifier.startsWith('node:') && !file.startsWith('src/shared/')) return;
      const target = isPackage ? specifier : resolveSpecifier(context.filename, specifier, root);
      const message = boundaryViolation(file, target, isPackage);
      if (message) context.report({ node: source, message });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
    };
  },
};

export default { rules: { imports: importsRule } };
