/**
 * `bun run check:async`: no promise is dropped or tested for truth in `src/`. After the storage
 * port (issue 16) every database call is asynchronous, and two mistakes type-check silently:
 *  - a floating promise: a call statement whose value is a Promise, neither awaited, returned,
 *    nor marked `void` on purpose (its writes may land after the unit of work ended, its error
 *    is lost);
 *  - a promise used as a condition (`if (isRevoked(id))`, `!exists(...)`, `a && b()`): always
 *    true, whatever the database says.
 * Uses the TypeScript 5 compiler API's type checker (devDependency `typescript5`) over the
 * project's tsconfig, reporting only files under `src/`. Exit 0 clean, 1 with one line per
 * problem (`file:line:col rule: text`).
 */
import { dirname, join, relative } from "node:path";
import ts from "typescript5";

/** One dropped or misused promise. */
export interface AsyncViolation {
  file: string;
  line: number;
  col: number;
  rule: "floating-promise" | "promise-condition";
  text: string;
}

/** Server code: `src/` minus the dashboard's browser app (`src/web/`, its own fetch calls). */
const inScope = (rel: string) => rel.startsWith("src/") && !rel.startsWith("src/web/");

/** Checks the files under `root/src` of the program described by `root/tsconfig.json`. */
export function checkAsync(root: string, only?: (file: string) => boolean): AsyncViolation[] {
  const configPath = join(root, "tsconfig.json");
  const cfg = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(cfg.config, ts.sys, dirname(configPath));
  const rootNames = parsed.fileNames.filter((f) => inScope(relative(root, f)));
  const program = ts.createProgram({ rootNames, options: { ...parsed.options, noEmit: true } });
  const checker = program.getTypeChecker();
  const out: AsyncViolation[] = [];

  const isPromise = (node: ts.Node): boolean => {
    const type = checker.getTypeAtLocation(node);
    const parts = type.isUnion() ? type.types : [type];
    return parts.some((t) => {
      const then = t.getProperty("then");
      if (!then) return false;
      const sym = t.getSymbol() ?? t.aliasSymbol;
      const name = sym?.getName();
      return (
        name === "Promise" ||
        name === "PromiseLike" ||
        checker.getTypeOfSymbolAtLocation(then, node).getCallSignatures().length > 0
      );
    });
  };
  const report = (sf: ts.SourceFile, node: ts.Node, rule: AsyncViolation["rule"]) => {
    const { line, character } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    out.push({
      file: relative(root, sf.fileName),
      line: line + 1,
      col: character + 1,
      rule,
      text: node.getText(sf).split("\n")[0].slice(0, 100),
    });
  };
  /** `p.catch(f)`, `p.then(f, g)`, and `.finally(...)` on either: the rejection is handled. */
  const handled = (e: ts.CallExpression | ts.NewExpression): boolean => {
    if (!ts.isCallExpression(e) || !ts.isPropertyAccessExpression(e.expression)) return false;
    const name = e.expression.name.text;
    if (name === "catch" || (name === "then" && e.arguments.length >= 2)) return true;
    const inner = strip(e.expression.expression);
    return name === "finally" && ts.isCallExpression(inner) && handled(inner);
  };
  /** A promise that may be null or undefined is tested for presence, not for truth: allowed. */
  const isPromiseCondition = (node: ts.Node): boolean => {
    const type = checker.getTypeAtLocation(node);
    if (type.isUnion() && type.types.some((t) => t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined))) return false;
    return isPromise(node);
  };
  const strip = (e: ts.Expression): ts.Expression => (ts.isParenthesizedExpression(e) ? strip(e.expression) : e);

  for (const sf of program.getSourceFiles()) {
    const rel = relative(root, sf.fileName);
    if (!inScope(rel) || sf.isDeclarationFile || (only && !only(rel))) continue;
    const visit = (node: ts.Node) => {
      if (ts.isExpressionStatement(node)) {
        const e = strip(node.expression);
        if ((ts.isCallExpression(e) || ts.isNewExpression(e)) && !handled(e) && isPromise(e))
          report(sf, e, "floating-promise");
      }
      const conditions: ts.Expression[] = [];
      if (ts.isIfStatement(node) || ts.isWhileStatement(node) || ts.isDoStatement(node))
        conditions.push(node.expression);
      if (ts.isConditionalExpression(node)) conditions.push(node.condition);
      if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.ExclamationToken)
        conditions.push(node.operand);
      if (
        ts.isBinaryExpression(node) &&
        [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken].includes(node.operatorToken.kind)
      )
        conditions.push(node.left);
      for (const c of conditions) {
        const e = strip(c);
        if (!ts.isAwaitExpression(e) && isPromiseCondition(e)) report(sf, e, "promise-condition");
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

if (import.meta.main) {
  const root = join(import.meta.dir, "..");
  const found = checkAsync(root);
  for (const v of found) console.error(`${v.file}:${v.line}:${v.col} ${v.rule}: ${v.text}`);
  console.log(found.length ? `check:async: ${found.length} problem(s)` : "check:async: ok");
  process.exit(found.length ? 1 : 0);
}
