/**
 * `npm run --silent cli -- model add|list|remove …`: the chat gateway's model registry, for the operator.
 * Without --org a model is deployment-wide (every organisation may use it); with --org it belongs to that
 * organisation. Keys are never passed here: --key-env names the environment variable that holds the key.
 */
import { getDb } from '../db';
import { cliIO, parseArgs, UsageError } from '../cli/io';
import { requireOrganization } from '../auth/accounts';
import { writeAudit } from '../auth/audit';
import { AppError } from '../errors';
import { addModel, listModels, MODEL_FAMILIES, removeModel, toModelView, type ModelFamily } from './registry';

function num(v: string | true | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  const n = typeof v === 'string' ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw new UsageError(`${name} needs a number`);
  return n;
}

function str(v: string | true | undefined, name: string): string {
  if (typeof v !== 'string' || !v.trim()) throw new UsageError(`${name} is required`);
  return v.trim();
}

export async function run(argv: string[]): Promise<number> {
  const io = cliIO();
  const [action, ...rest] = argv;
  const { positional, flags } = parseArgs(rest, ['approved-for-phi', 'json']);
  const db = await getDb();
  try {
    const org = typeof flags.org === 'string' ? await requireOrganization(db, flags.org) : null;
    switch (action) {
      case 'add': {
        const name = positional[0];
        if (!name) throw new UsageError('model add <name> --base-url <url> --upstream-model <m>');
        const family = (typeof flags.family === 'string' ? flags.family : 'standard') as ModelFamily;
        if (!MODEL_FAMILIES.includes(family)) throw new UsageError(`--family must be one of ${MODEL_FAMILIES.join(', ')}`);
        const m = await addModel(
          db,
          {
            name,
            base_url: str(flags['base-url'], '--base-url'),
            upstream_model: str(flags['upstream-model'], '--upstream-model'),
            api_key_env: typeof flags['key-env'] === 'string' ? flags['key-env'] : null,
            family,
            approved_for_phi: flags['approved-for-phi'] === true,
            price_input_per_1k_usd: num(flags['price-in'], '--price-in'),
            price_output_per_1k_usd: num(flags['price-out'], '--price-out'),
            timeout_ms: num(flags['timeout-ms'], '--timeout-ms'),
          },
          { orgId: org?.id ?? null, actor: 'cli' },
        );
        if (org)
          await writeAudit(db, {
            orgId: org.id,
            actor: 'cli',
            action: 'model.add',
            targetId: m.id,
            details: { name: m.name, approved_for_phi: m.approvedForPhi },
          });
        const v = toModelView(m);
        io.out(`${m.id}\t${m.name}\n`);
        io.err(
          `${v.scope === 'deployment' ? 'deployment-wide' : `for ${org!.name}`}; ${v.family}; ${v.approved_for_phi ? 'approved for PHI' : 'NOT approved for PHI (requests get 403 model_not_approved)'}; ` +
            `${v.api_key_env ? `key from $${v.api_key_env}${v.api_key_configured ? '' : ' (not set in this process)'}` : 'no key'}; budget ${v.timeout_ms} ms.\n`,
        );
        return 0;
      }
      case 'list': {
        const models = await listModels(db, org ? { orgId: org.id } : 'all');
        const views = models.map((m) => ({ ...toModelView(m), org_id: m.orgId }));
        if (flags.json) {
          io.out(JSON.stringify(views, null, 2) + '\n');
          return 0;
        }
        io.out(['name', 'scope', 'family', 'phi', 'upstream', 'key_env', 'in/1K', 'out/1K', 'budget_ms'].join('\t') + '\n');
        for (const v of views) {
          io.out(
            [
              v.name,
              v.scope === 'deployment' ? 'deployment' : `org:${v.org_id}`,
              v.family,
              v.approved_for_phi ? 'approved' : 'no',
              `${v.base_url} ${v.upstream_model}`,
              v.api_key_env ?? '-',
              `$${v.price_input_per_1k_usd}`,
              `$${v.price_output_per_1k_usd}`,
              v.timeout_ms,
            ].join('\t') + '\n',
          );
        }
        return 0;
      }
      case 'remove': {
        const ref = positional[0];
        if (!ref) throw new UsageError('model remove <name|id> [--org <org>]');
        const m = await removeModel(db, ref, { orgId: org?.id ?? null });
        if (org) await writeAudit(db, { orgId: org.id, actor: 'cli', action: 'model.remove', targetId: m.id, details: { name: m.name } });
        io.out(`removed ${m.id}\t${m.name}\n`);
        return 0;
      }
      default:
        throw new UsageError(`unknown command: model ${action ?? ''}`.trim());
    }
  } catch (err) {
    if (err instanceof AppError) {
      io.err(`error: ${err.message}\n`);
      return err.status === 404 ? 3 : 1;
    }
    throw err;
  }
}
