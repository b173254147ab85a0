// The public API report of @cms/core (issue 22 item 3): every name each public entry of the
// package exports, with its kind and declaration, read from the compiled .d.ts with the
// TypeScript compiler API. `npm run api:report` rewrites packages/core/etc/core.api.md;
// `--check` compares instead and exits 1 when the public surface changed (npm test runs it).
// Either way it exits 1 when a public declaration uses a name no public entry exports.
// Run after `npm run build` (the npm script builds first).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CORE = join(ROOT, 'packages', 'core');
const REPORT = join(CORE, 'etc', 'core.api.md');
export const REGENERATE = 'npm run api:report';
/** The entries a consumer may import; `./internal` is left out on purpose (not public). */
const PUBLIC_ENTRIES = ['.', './testing', './testing/contracts', './snapshots'];

const KINDS = [
  [ts.SymbolFlags.Class, 'class'],
  [ts.SymbolFlags.Function, 'function'],
  [ts.SymbolFlags.Interface, 'interface'],
  [ts.SymbolFlags.TypeAlias, 'type'],
  [ts.SymbolFlags.Enum, 'enum'],
  [ts.SymbolFlags.Variable, 'const'],
  [ts.SymbolFlags.Namespace, 'namespace'],
];

function entryDeclarations() {
  const { exports } = JSON.parse(readFileSync(join(CORE, 'package.json'), 'utf8'));
  const missing = PUBLIC_ENTRIES.filter((entry) => !exports[entry]);
  if (missing.length > 0) throw new Error(`package.json has no exports for ${missing.join(', ')}`);
  return PUBLIC_ENTRIES.map((entry) => ({ entry, file: join(CORE, exports[entry].types) }));
}

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

function declarationText(declaration) {
  const source = declaration.getSourceFile();
  const text = printer.printNode(ts.EmitHint.Unspecified, declaration, source);
  const withKeyword = ts.isVariableDeclaration(declaration) ? `const ${text};` : text;
  return withKeyword.replace(/^export (declare )?/, '').replace(/^declare /, '');
}

/**
 * The names a public declaration uses (a parameter's type, a base class, a constraint) that no
 * public entry exports: a consumer meets them in a signature and cannot name them (`UpdateInput`
 * of `UpdateForm.execute`, until 2026-12-03). Each as `Name (file) <- where it is used`.
 */
function unexportedReferences(program, checker, publicSymbols, declarations) {
  const dist = join(CORE, 'dist');
  const found = new Map();
  const visit = (node, owner) => {
    const name = ts.isTypeReferenceNode(node) ? node.typeName : ts.isExpressionWithTypeArguments(node) ? node.expression : ts.isImportTypeNode(node) ? node.qualifier : ts.isTypeQueryNode(node) ? node.exprName : undefined;
    let symbol = name && checker.getSymbolAtLocation(name);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    const file = symbol?.declarations?.[0]?.getSourceFile().fileName;
    if (file?.startsWith(dist) && !publicSymbols.has(symbol) && !(symbol.flags & ts.SymbolFlags.TypeParameter)) {
      const key = `${symbol.name} (${file.slice(dist.length + 1)})`;
      if (!found.has(key)) found.set(key, owner);
    }
    ts.forEachChild(node, (child) => visit(child, owner));
  };
  for (const { owner, declaration } of declarations) if (declaration.getSourceFile().fileName.startsWith(dist)) visit(declaration, owner);
  return [...found].map(([key, owner]) => `${key} <- ${owner}`);
}

/** The report's text: one section per entry, one block per exported name, sorted by name. */
export function apiReport() {
  const entries = entryDeclarations();
  const program = ts.createProgram(
    entries.map(({ file }) => file),
    { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2023, strict: true, noEmit: true, types: [] },
  );
  const checker = program.getTypeChecker();
  const lines = ['# API report of @cms/core', '', `Generated from the compiled declarations by \`${REGENERATE}\`; do not edit.`, 'A change here is a change of the public surface: review it as such.', ''];
  const counts = {};
  const publicSymbols = new Set();
  const declarations = [];
  for (const { entry, file } of entries) {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`cannot read ${file}: run npm run build first`);
    const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(source)).sort((a, b) => (a.name < b.name ? -1 : 1));
    counts[entry] = exported.length;
    lines.push(`## \`@cms/core${entry.slice(1)}\` (${exported.length} names)`, '');
    for (const symbol of exported) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      publicSymbols.add(target);
      for (const declaration of target.declarations ?? []) declarations.push({ owner: `${entry} ${symbol.name}`, declaration });
      const kinds = KINDS.filter(([flag]) => target.flags & flag).map(([, kind]) => kind);
      lines.push(`### ${symbol.name} (${kinds.join(', ') || 'unknown'})`, '', '```ts');
      for (const declaration of target.declarations ?? []) lines.push(declarationText(declaration));
      lines.push('```', '');
    }
  }
  return { text: lines.join('\n'), counts, unexported: unexportedReferences(program, checker, publicSymbols, declarations) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { text, counts, unexported } = apiReport();
  const summary = Object.entries(counts).map(([entry, count]) => `${entry} ${count}`).join(', ');
  if (unexported.length > 0) {
    console.error(`Public declarations use names no public entry of @cms/core exports (export them, or keep them out of public signatures):\n  ${unexported.join('\n  ')}`);
    process.exit(1);
  }
  if (process.argv.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync(REPORT, 'utf8');
    } catch {}
    if (committed !== text) {
      console.error(`The public API of @cms/core differs from packages/core/etc/core.api.md (exports now: ${summary}).`);
      console.error(`If the change is intended, run \`${REGENERATE}\` and commit the report.`);
      process.exit(1);
    }
    console.log(`API report up to date (${summary})`);
  } else {
    writeFileSync(REPORT, text);
    console.log(`wrote packages/core/etc/core.api.md (${summary})`);
  }
}
