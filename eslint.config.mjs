import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

/**
 * Modules under server/ that browser code may import: pure (no Node APIs, no database, no environment), checked by
 * server/architecture.test.ts over everything they import in turn.
 */
export const BROWSER_SAFE_SERVER_MODULES = ['@/server/batch/case-file', '@/server/batch/limits'];

/** A file marked 'use client' imports from server/ only types, or a module listed in BROWSER_SAFE_SERVER_MODULES. */
const clientBoundary = {
  rules: {
    'no-server-import': {
      meta: {
        type: 'problem',
        messages: {
          server:
            "A 'use client' file imports {{spec}}: browser code may import only types from server/, or a module listed in BROWSER_SAFE_SERVER_MODULES (eslint.config.mjs).",
        },
      },
      create(context) {
        const ast = context.sourceCode.ast;
        if (!ast.body.some((n) => n.type === 'ExpressionStatement' && n.directive === 'use client')) return {};
        const check = (node, spec, typeOnly) => {
          if (typeOnly || typeof spec !== 'string') return;
          if (!/^(@\/server\/|(\.\.\/)+server\/)/.test(spec)) return;
          if (BROWSER_SAFE_SERVER_MODULES.includes(spec)) return;
          context.report({ node, messageId: 'server', data: { spec } });
        };
        const typeOnly = (node) =>
          node.importKind === 'type' ||
          node.exportKind === 'type' ||
          (node.specifiers?.length > 0 && node.specifiers.every((x) => x.importKind === 'type' || x.exportKind === 'type'));
        return {
          ImportDeclaration: (node) => check(node, node.source.value, typeOnly(node)),
          ExportNamedDeclaration: (node) => node.source && check(node, node.source.value, typeOnly(node)),
          ExportAllDeclaration: (node) => check(node, node.source.value, node.exportKind === 'type'),
          ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value, false),
        };
      },
    },
  },
};

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: ['.next/**', 'node_modules/**', 'server/generated/**', '.cache/**', '.data/**', '.scratch/**', 'test-results/**', 'next-env.d.ts'],
  },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['app/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}'],
    plugins: { 'client-boundary': clientBoundary },
    rules: { 'client-boundary/no-server-import': 'error' },
  },
  {
    // Test helpers parse arbitrary JSON responses.
    files: ['tests/**/*.ts', 'e2e/**/*.ts', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
];

export default config;
