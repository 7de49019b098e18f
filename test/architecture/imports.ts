/**
 * Reads the import graph of `src/` with the TypeScript compiler API: static imports and
 * re-exports (type-only ones included), `import type`, `import x = require()` and dynamic
 * `import("…")`. Shared by the layer test and `scan-layers.ts`, which runs it on another tree.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

/** One import found in a file: the specifier as written and, for a relative one, the target file. */
export interface ImportEdge {
  /** Path of the importing file, relative to the scanned root, with forward slashes. */
  from: string;
  specifier: string;
  /** Resolved target relative to the root for `./` and `../` specifiers; undefined for packages. */
  to: string | undefined;
  typeOnly: boolean;
  line: number;
}

/** Every `.ts` file under `root`, relative and sorted. */
export function listSources(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) out.push(toPosix(relative(root, path)));
    }
  };
  walk(root);
  return out.sort();
}

/** The imports of every source file under `root` (the directory holding `core/`, `http/`, …). */
export function scanImports(root: string): ImportEdge[] {
  const absRoot = resolve(root);
  const files = new Set(listSources(absRoot));
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const text = readFileSync(join(absRoot, file), "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const add = (specifier: string, node: ts.Node, typeOnly: boolean) => {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      edges.push({ from: file, specifier, to: resolveRelative(file, specifier, files), typeOnly, line });
    };
    const visit = (node: ts.Node) => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        add(node.moduleSpecifier.text, node, Boolean(node.importClause?.isTypeOnly));
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        add(node.moduleSpecifier.text, node, node.isTypeOnly);
      } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
        const expr = node.moduleReference.expression;
        if (ts.isStringLiteral(expr)) add(expr.text, node, node.isTypeOnly);
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const [arg] = node.arguments;
        if (arg && ts.isStringLiteralLike(arg)) add(arg.text, node, false);
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
        // `import("./x.js").T` in a type position.
        add(node.argument.literal.text, node, true);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return edges;
}

/** Maps `./x.js` (as ESM TypeScript writes it) to the `.ts` file it names, if that file exists. */
function resolveRelative(from: string, specifier: string, files: Set<string>): string | undefined {
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) return undefined;
  const base = toPosix(join(dirname(from), specifier));
  const candidates = [base.replace(/\.(m?js)$/, ".ts"), `${base}.ts`, `${base}/index.ts`, base];
  return candidates.find((candidate) => files.has(candidate)) ?? base;
}

function toPosix(path: string): string {
  return path.split(sep).join("/");
}
