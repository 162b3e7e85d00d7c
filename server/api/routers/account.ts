import { z } from 'zod';
import { authed, router, type AuthedContext } from '../trpc';
import { createApiKey, listApiKeys, revokeApiKey } from '../../auth/keys';
import { listAudit, writeAudit } from '../../auth/audit';
import { actorOf } from '../../auth/principal';
import { SCOPES } from '../../auth/scopes';
import { setSandboxAllowance, setSpendCap, usageSummary } from '../../billing/ledger';
import { requireOrganization } from '../../auth/accounts';

/** UI functions for signed-in users: who am I, API keys (admins), audit log, usage and spend caps. */
const ScopeSchema = z.enum(SCOPES);

const KeyView = z.object({
  id: z.string(),
  name: z.string().nullable(),
  prefix: z.string(),
  last4: z.string(),
  display: z.string(),
  scopes: z.array(ScopeSchema),
  sandbox: z.boolean(),
  created_at: z.string(),
  created_by: z.string().nullable(),
  last_used_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  status: z.enum(['active', 'revoked', 'expired']),
});

const signedIn = authed({ userOnly: true });
const admin = authed({ userOnly: true, role: 'admin' });

function orgOf(ctx: AuthedContext): string {
  return ctx.principal.orgId;
}

export const accountRouter = router({
  me: signedIn.query(async ({ ctx }) => {
    const p = ctx.principal;
    const org = await requireOrganization(ctx.db, p.orgId);
    return {
      org: { id: org.id, name: org.name },
      user: p.kind === 'user' ? { id: p.userId, email: p.email, role: p.role } : null,
    };
  }),

  listKeys: admin.output(z.array(KeyView)).query(async ({ ctx }) => listApiKeys(ctx.db, orgOf(ctx))),

  createKey: admin
    .input(
      z.strictObject({
        name: z.string().trim().max(100).optional(),
        scopes: z.array(ScopeSchema).max(SCOPES.length).default([]),
        sandbox: z.boolean().default(false),
        expires_in_days: z.number().int().min(1).max(3650).nullable().optional(),
      }),
    )
    .output(z.object({ key: z.string(), view: KeyView }))
    .mutation(async ({ ctx, input }) =>
      createApiKey(ctx.db, {
        orgId: orgOf(ctx),
        scopes: input.scopes,
        sandbox: input.sandbox,
        expiresInDays: input.expires_in_days,
        name: input.name || null,
        actor: actorOf(ctx.principal),
      }),
    ),

  revokeKey: admin
    .input(z.strictObject({ id: z.string().uuid() }))
    .output(KeyView)
    .mutation(async ({ ctx, input }) => revokeApiKey(ctx.db, orgOf(ctx), input.id, actorOf(ctx.principal))),

  audit: admin
    .input(
      z.strictObject({
        limit: z.number().int().min(1).max(500).default(100),
        before: z
          .string()
          .regex(/^\d{1,18}$/, 'must be an audit entry id')
          .optional(),
      }),
    )
    .query(async ({ ctx, input }) => listAudit(ctx.db, orgOf(ctx), input.limit, input.before)),

  usage: signedIn.query(async ({ ctx }) => usageSummary(ctx.db, orgOf(ctx))),

  setSpendCap: admin
    .input(
      z.strictObject({
        cap_usd: z.number().min(0).max(10_000_000).nullable(),
        sandbox_allowance_usd: z.number().min(0).max(100_000).optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const orgId = orgOf(ctx);
      await ctx.db.prisma.$transaction(async (tx) => {
        await setSpendCap(tx, orgId, input.cap_usd === null ? null : Math.round(input.cap_usd * 1e6));
        if (input.sandbox_allowance_usd !== undefined) await setSandboxAllowance(tx, orgId, Math.round(input.sandbox_allowance_usd * 1e6));
        await writeAudit(tx, {
          orgId,
          actor: actorOf(ctx.principal),
          action: 'org.set_cap',
          details: { cap_usd: input.cap_usd, sandbox_allowance_usd: input.sandbox_allowance_usd ?? null },
        });
      });
      return usageSummary(ctx.db, orgId);
    }),
});
