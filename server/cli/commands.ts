/**
 * The CLI's command registry, shared by the CLI process (server/cli/main.ts) and the server's CLI socket.
 * Each group lives with its domain and exports `run(argv)`, which receives the arguments after the group name and
 * returns the exit code. Groups marked `db` open the database (or run inside the server that owns PGlite).
 */
export type CommandModule = { run(argv: string[]): Promise<number> };

export interface CommandGroup {
  usage: string[];
  db: boolean;
  load: () => Promise<CommandModule>;
}

export const COMMANDS: Record<string, CommandGroup> = {
  org: {
    usage: ['org create <name>', 'org list', 'org set-cap <org> <usd|none>'],
    db: true,
    load: () => import('../auth/cli').then((m) => ({ run: (a: string[]) => m.run(['org', ...a]) })),
  },
  user: {
    usage: ['user create --org <org> --email <e> --password-stdin --role admin|coder', 'user list --org <org>'],
    db: true,
    load: () => import('../auth/cli').then((m) => ({ run: (a: string[]) => m.run(['user', ...a]) })),
  },
  key: {
    usage: [
      'key create --org <org> [--scopes drg:classify,llm:chat,redact,search] [--sandbox] [--expires-in 365d] [--name N]',
      'key revoke <key-id>',
      'key list --org <org>',
    ],
    db: true,
    load: () => import('../auth/cli').then((m) => ({ run: (a: string[]) => m.run(['key', ...a]) })),
  },
  db: { usage: ['db migrate', 'db status'], db: true, load: () => import('./db-commands') },
  drg: {
    usage: [
      'drg group [--version v43] [--edits] [--score] [--threads N]   (JSON Lines on stdin)',
      'drg edit [--score] [--threads N]   (Medicare Code Editor; JSON Lines on stdin)',
    ],
    db: false,
    load: () => import('../drg/cli'),
  },
  redact: {
    usage: ['redact [--no-mapping] [--time-budget-ms N] [--threads N]   (JSON Lines {"id","text"} on stdin)'],
    db: false,
    load: () => import('../redact/cli'),
  },
  vocab: {
    usage: [
      'vocab import <dir> [--force] [--batch-rows N]',
      'vocab build-starter [--out DIR] [--force]',
      'vocab build-index [--force]   (compile and store the search index; vocab import does it too)',
      'vocab status',
      'vocab lexicon   (clinical lexicon sizes and terms the vocabulary lacks)',
    ],
    db: true,
    load: () => import('../search/cli'),
  },
  search: {
    usage: ['search [--top-k N] [--search-mode hybrid|graph] [--profile P]   (JSON Lines {"qid","query","vocabularies"?} on stdin)'],
    db: true,
    load: () => import('../search/cli').then((m) => ({ run: m.runSearch })),
  },
  model: {
    usage: [
      'model add <name> --base-url <url> --upstream-model <m> [--key-env VAR] [--family standard|reasoning] [--approved-for-phi] [--price-in <usd/1K>] [--price-out <usd/1K>] [--timeout-ms N] [--org <org>]',
      'model list [--org <org>] [--json]',
      'model remove <name|id> [--org <org>]',
    ],
    db: true,
    load: () => import('../gateway/cli'),
  },
};

export function usageText(): string {
  const lines = ['usage: npm run --silent cli -- <command> [args]', ''];
  for (const g of Object.values(COMMANDS)) for (const u of g.usage) lines.push(`  ${u}`);
  return lines.join('\n') + '\n';
}

/** Run a command inside a process that already has the database open (the server's CLI socket). */
export async function runInProcess(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const group = name ? COMMANDS[name] : undefined;
  if (!group) throw new Error(`unknown command: ${name ?? '(none)'}`);
  return (await group.load()).run(rest);
}
