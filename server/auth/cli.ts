import { getDb } from '../db';
import { cliIO, parseArgs, readAllStdin, UsageError } from '../cli/io';
import { createOrganization, createUser, listOrganizations, listUsers, requireOrganization } from './accounts';
import { createApiKey, listApiKeys, revokeApiKey } from './keys';
import { parseScopes, ROLES, type Role } from './scopes';
import { setSpendCap } from '../billing/ledger';
import { AppError } from '../errors';
import { writeAudit } from './audit';

/** Operator commands: organisations, users and API keys. The plaintext key is printed once, on stdout. */
export async function run(argv: string[]): Promise<number> {
  const io = cliIO();
  const [group, action, ...rest] = argv;
  const { positional, flags } = parseArgs(rest, ['sandbox', 'password-stdin', 'json']);
  const db = await getDb();
  try {
    switch (`${group} ${action}`) {
      case 'org create': {
        const name = positional.join(' ').trim();
        if (!name) throw new UsageError('org create <name>');
        const org = await createOrganization(db, name);
        io.out(`${org.id}\t${org.name}\n`);
        return 0;
      }
      case 'org list': {
        for (const r of await listOrganizations(db))
          io.out(`${r.id}\t${r.name}\tcap=${r.spend_cap_micros === null ? 'none' : `$${Number(r.spend_cap_micros) / 1e6}`}\n`);
        return 0;
      }
      case 'org set-cap': {
        const [orgRef, amount] = positional;
        if (!orgRef || !amount) throw new UsageError('org set-cap <org> <usd|none>');
        const org = await requireOrganization(db, orgRef);
        const micros = amount === 'none' ? null : Math.round(Number(amount) * 1e6);
        if (micros !== null && (!Number.isFinite(micros) || micros < 0)) throw new UsageError('the cap must be a non-negative number of USD or "none"');
        await setSpendCap(db, org.id, micros);
        await writeAudit(db, { orgId: org.id, actor: 'cli', action: 'org.set_cap', details: { cap_usd: micros === null ? null : micros / 1e6 } });
        io.out(`spend cap for ${org.name}: ${micros === null ? 'none' : `$${micros / 1e6}`}\n`);
        return 0;
      }
      case 'user create': {
        const orgRef = str(flags.org, '--org');
        const email = str(flags.email, '--email');
        const role = str(flags.role, '--role') as Role;
        if (!ROLES.includes(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
        if (!flags['password-stdin']) throw new UsageError('pass the password on stdin with --password-stdin (never as an argument)');
        const password = (await readAllStdin(io)).replace(/\r?\n$/, '');
        const org = await requireOrganization(db, orgRef);
        const user = await createUser(db, { orgId: org.id, email, password, role });
        await writeAudit(db, { orgId: org.id, actor: 'cli', action: 'user.create', targetId: user.id, details: { email: user.email, role } });
        io.out(`${user.id}\t${user.email}\t${user.role}\t${org.name}\n`);
        return 0;
      }
      case 'user list': {
        const org = await requireOrganization(db, str(flags.org, '--org'));
        for (const r of await listUsers(db, org.id)) io.out(`${r.id}\t${r.email}\t${r.role}\n`);
        return 0;
      }
      case 'key create': {
        const org = await requireOrganization(db, str(flags.org, '--org'));
        const scopes = parseScopes(typeof flags.scopes === 'string' ? flags.scopes : undefined);
        const expiresInDays = parseLifetime(flags['expires-in']);
        const { key, view } = await createApiKey(db, {
          orgId: org.id,
          scopes,
          sandbox: flags.sandbox === true,
          expiresInDays,
          name: typeof flags.name === 'string' ? flags.name : null,
          actor: 'cli',
        });
        io.out(`${key}\n`);
        io.err(
          `key id ${view.id} for ${org.name}; scopes: ${view.scopes.length ? view.scopes.join(',') : 'all'}; ` +
            `${view.sandbox ? 'sandbox; ' : ''}expires ${view.expires_at ?? 'never'}. The key is shown only now.\n`,
        );
        return 0;
      }
      case 'key revoke': {
        const id = positional[0];
        if (!id) throw new UsageError('key revoke <key-id>');
        const view = await revokeApiKey(db, null, id, 'cli');
        io.out(`revoked ${view.id} (${view.display})\n`);
        return 0;
      }
      case 'key list': {
        const org = await requireOrganization(db, str(flags.org, '--org'));
        const keys = await listApiKeys(db, org.id);
        if (flags.json) io.out(JSON.stringify(keys, null, 2) + '\n');
        else {
          io.out(['id', 'key', 'status', 'scopes', 'sandbox', 'created', 'last used', 'expires'].join('\t') + '\n');
          for (const k of keys) {
            io.out(
              [
                k.id,
                k.display,
                k.status,
                k.scopes.join(',') || 'all',
                k.sandbox ? 'yes' : 'no',
                k.created_at,
                k.last_used_at ?? '-',
                k.expires_at ?? 'never',
              ].join('\t') + '\n',
            );
          }
        }
        return 0;
      }
      default:
        throw new UsageError(`unknown command: ${group} ${action ?? ''}`.trim());
    }
  } catch (err) {
    if (err instanceof AppError) {
      io.err(`error: ${err.message}\n`);
      return err.status === 404 ? 3 : 1;
    }
    throw err;
  }
}

function str(v: string | true | undefined, name: string): string {
  if (typeof v !== 'string' || !v.trim()) throw new UsageError(`${name} is required`);
  return v.trim();
}

/** `365d`, `52w`, `12m` (30-day months), `1y`, or `never`. Default: the configured pilot lifetime. */
export function parseLifetime(v: string | true | undefined): number | null | undefined {
  if (v === undefined) return undefined;
  if (v === true) throw new UsageError('--expires-in needs a value such as 365d or never');
  if (v === 'never') return null;
  const m = /^(\d{1,5})([dwmy]?)$/.exec(v.trim());
  if (!m) throw new UsageError(`--expires-in: '${v}' is not a duration like 30d, 12m, 1y or never`);
  const n = Number(m[1]);
  const days = m[2] === 'w' ? n * 7 : m[2] === 'm' ? n * 30 : m[2] === 'y' ? n * 365 : n;
  if (days < 1 || days > 3650) throw new UsageError('--expires-in must be between 1 day and 10 years');
  return days;
}
