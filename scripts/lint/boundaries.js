/**
 * The code's boundaries as lint rules (CONVENTIONS.md "Shape", ARCHITECTURE.md "Layout"):
 * - `src/shared` is pure and shared by every runtime: it imports nothing outside itself;
 * - the station never imports the app's runtimes (`src/app`, `src/sw`, `src/worker`, `src/db`);
 * - the station's areas (`server/<area>/`) meet only at their doors: code outside an area imports it through
 *   `server/<area>/index.ts`, and code inside an area never imports its own door (the door imports it);
 *   at run time an area imports only the areas before it in AREAS (type-only imports may go either way);
 * - a route plugin (`server/<area>/routes/**`) never touches tables: no query builder calls, no kysely.
 * Only relative imports are resolved; a bare import from `src/shared` (a package) is refused too.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

const APP_RUNTIMES = ['src/app/', 'src/sw/', 'src/worker/', 'src/db/'];
/** The areas in the one direction they depend on each other at run time: each imports only those before it. */
const AREAS = [
  'platform',
  'market',
  'ledger',
  'identity',
  'content',
  'wallet',
  'trading',
  'products',
  'jobs',
  'cli',
];

/** The area a repository-relative path is in, or null (the station's root files, or outside `server/`). */
function areaOf(file) {
  const parts = file.split('/');
  return parts[0] === 'server' && parts.length > 2 && AREAS.includes(parts[1]) ? parts[1] : null;
}

/** The repository-relative path an import specifier names (with its extension when a file has one). */
function resolveSpecifier(fromFile, specifier, root) {
  const base = path.resolve(path.dirname(fromFile), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return path.relative(root, candidate);
  }
  return path.relative(root, base);
}

/** The message for an import of `target` from `file`, or null when the import keeps the boundaries. */
export function boundaryViolation(file, target, isPackage, typeOnly = false) {
  if (file.startsWith('src/shared/')) {
    if (isPackage) return 'src/shared is pure: it imports no package';
    if (!target.startsWith('src/shared/')) return `src/shared imports nothing outside itself (${target})`;
    return null;
  }
  if (isPackage) return null;
  if (file.startsWith('server/') && APP_RUNTIMES.some((dir) => target.startsWith(dir)))
    return `the station never imports the app's runtimes (${target})`;
  if (!file.startsWith('server/')) return null;
  const from = areaOf(file);
  const to = areaOf(target);
  const door = to && (target === `server/${to}/index.ts` || target === `server/${to}`);
  if (to && from !== to && !door)
    return `another area is imported through its door: server/${to}/index.ts, not ${target}`;
  if (to && from === to && door) return `an area's own modules never import its door (${file})`;
  if (to && from && !typeOnly && AREAS.indexOf(to) > AREAS.indexOf(from))
    return `areas depend one way: ${from} does not import ${to} at run time (only its types)`;
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
      const typeOnly = node.importKind === 'type' || node.exportKind === 'type';
      const message = boundaryViolation(file, target, isPackage, typeOnly);
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

const QUERY_CALLS = new Set(['selectFrom', 'insertInto', 'updateTable', 'deleteFrom', 'transaction']);

const routesRule = {
  meta: {
    type: 'problem',
    docs: { description: "Route plugins call their area's domain code, never the database" },
    schema: [],
  },
  create(context) {
    const file = path.relative(context.cwd, context.filename);
    if (!/^server\/[^/]+\/routes\//.test(file)) return {};
    return {
      ImportDeclaration(node) {
        if (node.source.value === 'kysely')
          context.report({ node: node.source, message: 'a route plugin never imports kysely' });
      },
      MemberExpression(node) {
        if (node.property.type === 'Identifier' && QUERY_CALLS.has(node.property.name))
          context.report({
            node: node.property,
            message: `a route plugin never touches tables (${node.property.name}): call its area's domain code`,
          });
      },
    };
  },
};

export default { rules: { imports: importsRule, routes: routesRule } };
