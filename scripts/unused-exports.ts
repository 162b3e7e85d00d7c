/**
 * Exports under server/ that nothing uses: not imported by any file of the project (app, components, server,
 * scripts, tests, eval, e2e) and not referenced in their own file either. Uses the TypeScript compiler API on the
 * project's tsconfig (no extra dependency). A namespace import, `export *` or dynamic `import()` of a module counts
 * as using all of its exports.
 *
 *   npx tsx scripts/unused-exports.ts          # list; exit 1 when there are any
 *   npx tsx scripts/unused-exports.ts --all    # also exports used only inside their own file
 */
import path from 'node:path';
import ts from 'typescript';

/** Exports used from outside TypeScript (plain .mjs files are not part of the program). */
const USED_FROM_MJS = new Set(['server/workers/tasks.ts runTask', 'server/cli/standalone.ts main']);

const root = path.resolve(import.meta.dirname, '..');
const all = process.argv.includes('--all');
const cfg = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
if (!cfg) throw new Error('tsconfig.json could not be read');
const program = ts.createProgram(cfg.fileNames, cfg.options);
const checker = program.getTypeChecker();
const files = program.getSourceFiles().filter((f) => f.fileName.startsWith(root + path.sep) && !f.fileName.includes(`${path.sep}node_modules${path.sep}`));

const used = new Set<ts.Symbol>();
const wholeModules = new Set<string>();

function moduleFile(spec: ts.Expression): string | undefined {
  const sym = checker.getSymbolAtLocation(spec);
  return sym?.declarations?.[0]?.getSourceFile().fileName;
}

function mark(s: ts.Symbol | undefined): void {
  if (!s) return;
  used.add(s);
  if (s.flags & ts.SymbolFlags.Alias) used.add(checker.getAliasedSymbol(s));
}

for (const f of files) {
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) && n.importClause) {
      const c = n.importClause;
      if (c.name) mark(checker.getSymbolAtLocation(c.name));
      if (c.namedBindings && ts.isNamespaceImport(c.namedBindings)) {
        const m = moduleFile(n.moduleSpecifier);
        if (m) wholeModules.add(m);
      } else if (c.namedBindings) for (const e of c.namedBindings.elements) mark(checker.getSymbolAtLocation(e.name));
    }
    if (ts.isExportDeclaration(n) && n.moduleSpecifier) {
      if (!n.exportClause || ts.isNamespaceExport(n.exportClause)) {
        const m = moduleFile(n.moduleSpecifier);
        if (m) wholeModules.add(m);
      } else for (const e of n.exportClause.elements) mark(checker.getExportSpecifierLocalTargetSymbol(e));
    }
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0]) {
      const m = moduleFile(n.arguments[0]);
      if (m) wholeModules.add(m);
    }
    if (ts.isImportTypeNode(n) && n.qualifier) mark(checker.getSymbolAtLocation(n.qualifier));
    ts.forEachChild(n, visit);
  };
  visit(f);
}

/** References to an export inside its own file, its declaration's name excluded. */
function localUses(f: ts.SourceFile, exp: ts.Symbol): number {
  const names = new Set((exp.declarations ?? []).map((d) => (d as ts.NamedDeclaration).name).filter(Boolean));
  let n = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && node.text === exp.name && !names.has(node)) {
      const s = checker.getSymbolAtLocation(node);
      if (s && (s === exp || checker.getExportSymbolOfSymbol(s) === exp)) n++;
    }
    ts.forEachChild(node, visit);
  };
  visit(f);
  return n;
}

const unused: string[] = [];
for (const f of files) {
  const rel = path.relative(root, f.fileName);
  if (!rel.startsWith(`server${path.sep}`) || rel.includes(`${path.sep}generated${path.sep}`) || rel.endsWith('.test.ts') || wholeModules.has(f.fileName))
    continue;
  const mod = checker.getSymbolAtLocation(f);
  if (!mod) continue;
  for (const e of checker.getExportsOfModule(mod)) {
    const target = e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e;
    if (used.has(e) || used.has(target) || USED_FROM_MJS.has(`${rel} ${e.name}`)) continue;
    if (!all && localUses(f, e) > 0) continue;
    const decl = e.declarations?.[0];
    unused.push(`${rel}:${decl ? f.getLineAndCharacterOfPosition(decl.getStart()).line + 1 : 0} ${e.name}`);
  }
}
process.stdout.write(unused.sort().join('\n') + (unused.length ? '\n' : ''));
process.stderr.write(`${unused.length} export(s) ${all ? 'not imported anywhere' : 'used nowhere'}\n`);
process.exitCode = unused.length ? 1 : 0;
