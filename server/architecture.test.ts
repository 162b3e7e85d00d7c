import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The house's layering, checked on the import graph (static and dynamic imports, read with the TypeScript
 * compiler's own pre-processor): domain folders hold no HTTP. The HTTP door (`server/http`) imports the domains,
 * never the reverse, so the route table and the handlers cannot form a cycle with a domain.
 */
const root = path.resolve(import.meta.dirname, '..');
const DOMAINS = ['drg', 'mce', 'redact', 'search', 'fhir', 'gateway', 'storage', 'agent', 'tabular', 'batch'];
const HTTP_DIR = path.join(root, 'server', 'http');
const FORBIDDEN_MODULES = [/^next\/server$/, /^next\/headers$/, /^next$/];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|tsx|mts|mjs)$/.test(e.name) && !/\.test\.ts$/.test(e.name)) out.push(p);
  }
  return out;
}

/** Import specifiers of a file: static imports and exports, `import()` and `require()`. */
function importsOf(file: string): string[] {
  return ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true).importedFiles.map((f) => f.fileName);
}

function resolves(from: string, spec: string): string | null {
  if (spec.startsWith('@/')) return path.join(root, spec.slice(2));
  if (spec.startsWith('.')) return path.resolve(path.dirname(from), spec);
  return null;
}

function violations(files: string[]): string[] {
  const bad: string[] = [];
  for (const file of files) {
    for (const spec of importsOf(file)) {
      const target = resolves(file, spec);
      const rel = path.relative(root, file);
      if (target && (target === HTTP_DIR || target.startsWith(HTTP_DIR + path.sep))) bad.push(`${rel} imports ${spec}`);
      if (!target && FORBIDDEN_MODULES.some((re) => re.test(spec))) bad.push(`${rel} imports ${spec}`);
    }
  }
  return bad;
}

/** Files that may touch process.env: the configuration module, the entry point (it derives NEXTAUTH_URL for next-auth), and the model registry (a model's upstream key variable is named in the registry: data, not configuration). */
const ENV_READERS = new Set(['server/env.ts', 'server/main.ts', 'server/gateway/registry.ts']);

describe('layering', () => {
  it('only the configuration module reads process.env', () => {
    const files = sourceFiles(path.join(root, 'server')).filter((f) => !f.includes(`${path.sep}generated${path.sep}`));
    const readers = files
      .filter((f) => /process\.env\b/.test(fs.readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')))
      .map((f) => path.relative(root, f));
    expect(readers.filter((f) => !ENV_READERS.has(f))).toEqual([]);
    expect(readers).toContain('server/env.ts');
  });

  it('domain folders import nothing from server/http or next/server', () => {
    const files = DOMAINS.flatMap((d) => sourceFiles(path.join(root, 'server', d)));
    expect(files.length).toBeGreaterThan(100);
    expect(violations(files)).toEqual([]);
  });

  it('the check sees static, re-exported and dynamic imports (a file that breaks the rule is reported)', () => {
    const dir = fs.mkdtempSync(path.join(root, 'server', 'drg', '.layering-'));
    try {
      const file = path.join(dir, 'bad.ts');
      fs.writeFileSync(
        file,
        [
          "import type { CustomRoute } from '../../http/route';",
          "export { isApiPath } from '@/server/http/paths';",
          "const m = await import('next/server');",
          "import { z } from 'zod';",
        ].join('\n'),
      );
      expect(violations([file]).map((v) => v.split(' imports ')[1])).toEqual(['../../http/route', '@/server/http/paths', 'next/server']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the server modules browser code may import (eslint.config.mjs) reach no Node API, database or environment', () => {
    const listed = /BROWSER_SAFE_SERVER_MODULES = \[([^\]]*)\]/.exec(fs.readFileSync(path.join(root, 'eslint.config.mjs'), 'utf8'))?.[1] ?? '';
    const specs = [...listed.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
    expect(specs.length).toBeGreaterThan(0);
    const bad: string[] = [];
    const seen = new Set<string>();
    const visit = (file: string, via: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      // type-only imports vanish from the bundle: strip them before reading the graph
      const code = fs.readFileSync(file, 'utf8').replace(/^\s*(?:import|export) type [^;]*;/gm, '');
      for (const spec of ts.preProcessFile(code, true, true).importedFiles.map((f) => f.fileName)) {
        const target = resolves(file, spec);
        if (!target) {
          if (/^(node:|fs$|path$|os$|crypto$|child_process$|worker_threads$|pg|@prisma|@electric-sql|pg-boss)/.test(spec))
            bad.push(`${via} → ${path.relative(root, file)} imports ${spec}`);
          continue;
        }
        const f = [`${target}.ts`, `${target}.tsx`, path.join(target, 'index.ts')].find((x) => fs.existsSync(x));
        if (!f) continue;
        const rel = path.relative(root, f);
        if (/^server\/(db|env|log|migrations|bootstrap)\.ts$/.test(rel)) bad.push(`${via} → ${rel}`);
        visit(f, via);
      }
    };
    for (const spec of specs) {
      const f = `${resolves(root, spec)}.ts`;
      expect(fs.existsSync(f)).toBe(true);
      visit(f, spec);
    }
    expect(bad).toEqual([]);
    // and the check is not blind: the batch settings module (environment) would be reported
    const before = bad.length;
    visit(path.join(root, 'server', 'batch', 'config.ts'), 'probe');
    expect(bad.length).toBeGreaterThan(before);
  });
});
