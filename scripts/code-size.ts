/**
 * Code size report: every file over 500 lines and every function over 120 lines under the given folders or
 * files (default `server/`), with their lengths, and the two counts (CONVENTIONS.md "Shape": small files by
 * concern). Functions are declarations, methods, constructors, accessors, and arrow functions and function
 * expressions wherever they are assigned or passed; a function's length runs from its first line to its last,
 * nested functions included, and each nested function is measured on its own too.
 *
 *   npx tsx scripts/code-size.ts [dir-or-file …]
 *
 * It exits 1 when it finds any, so `npm run lint` keeps the station within both limits.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const MAX_FILE_LINES = 500;
const MAX_FUNCTION_LINES = 120;
const SOURCE = /\.(?:[cm]?ts|tsx|[cm]?js|jsx)$/;

interface Measured {
  file: string;
  line: number;
  name: string;
  lines: number;
}

function sourceFiles(target: string): string[] {
  if (statSync(target).isFile()) return SOURCE.test(target) ? [target] : [];
  return readdirSync(target, { withFileTypes: true })
    .filter((entry) => entry.name !== 'node_modules' && !entry.name.startsWith('.'))
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      const full = path.join(target, entry.name);
      if (entry.isDirectory()) return sourceFiles(full);
      return entry.isFile() && SOURCE.test(entry.name) ? [full] : [];
    });
}

/** Lines as `wc -l` counts them, plus a last line without its newline. */
function lineCount(text: string): number {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

function isFunction(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node)
  );
}

function nameText(name: ts.Node | undefined, source: ts.SourceFile): string | undefined {
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name)) return name.text;
  return name.getText(source);
}

/** What a reader would call the function: its own name, what it is assigned to, or the call it is passed to. */
function functionName(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) {
    const owner = ts.isClassLike(node.parent) ? nameText(node.parent.name, source) : undefined;
    return `${owner ?? '(class)'} constructor`;
  }
  const own = nameText(node.name, source);
  if (own) return own;
  let parent = node.parent;
  while (
    ts.isParenthesizedExpression(parent) ||
    ts.isAsExpression(parent) ||
    ts.isSatisfiesExpression(parent)
  ) {
    parent = parent.parent;
  }
  if (
    ts.isVariableDeclaration(parent) ||
    ts.isPropertyAssignment(parent) ||
    ts.isPropertyDeclaration(parent)
  ) {
    return nameText(parent.name, source) ?? '(anonymous)';
  }
  if (ts.isBinaryExpression(parent)) return parent.left.getText(source);
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression.getText(source);
    const first = parent.arguments[0];
    const label = first && ts.isStringLiteralLike(first) ? `'${first.text}'` : '…';
    return `${callee}(${label}) callback`;
  }
  return '(anonymous)';
}

function measure(file: string): { lines: number; functions: Measured[] } {
  const text = readFileSync(file, 'utf8');
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const functions: Measured[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunction(node)) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      functions.push({ file, line: start + 1, name: functionName(node, source), lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { lines: lineCount(text), functions };
}

/** Prints the report; answers how many files and functions are over their limits. */
function report(targets: readonly string[]): number {
  const files = [...new Set(targets.flatMap(sourceFiles))];
  const longFiles: { file: string; lines: number }[] = [];
  const longFunctions: Measured[] = [];
  for (const file of files) {
    const measured = measure(file);
    if (measured.lines > MAX_FILE_LINES) longFiles.push({ file, lines: measured.lines });
    longFunctions.push(...measured.functions.filter((f) => f.lines > MAX_FUNCTION_LINES));
  }
  longFiles.sort((a, b) => b.lines - a.lines || (a.file < b.file ? -1 : 1));
  longFunctions.sort((a, b) => b.lines - a.lines || (a.file < b.file ? -1 : 1) || a.line - b.line);

  const width = 6;
  console.log(`Files over ${MAX_FILE_LINES} lines in ${targets.join(', ')}:`);
  for (const f of longFiles) console.log(`${String(f.lines).padStart(width)}  ${f.file}`);
  console.log(`\nFunctions over ${MAX_FUNCTION_LINES} lines:`);
  for (const f of longFunctions) {
    console.log(`${String(f.lines).padStart(width)}  ${f.file}:${f.line}  ${f.name}`);
  }
  console.log(
    `\n${files.length} files read; ${longFiles.length} files over ${MAX_FILE_LINES} lines; ` +
      `${longFunctions.length} functions over ${MAX_FUNCTION_LINES} lines`,
  );
  return longFiles.length + longFunctions.length;
}

const targets = process.argv.slice(2);
if (report(targets.length > 0 ? targets : ['server']) > 0) process.exitCode = 1;
