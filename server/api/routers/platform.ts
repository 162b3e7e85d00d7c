import { z } from 'zod';
import { authed, router } from '../trpc';
import { scopesHeld } from '../../auth/principal';
import { SCOPES } from '../../auth/scopes';
import { spendStatus } from '../../billing/ledger';

/** REST endpoints about the caller: who am I (any credentials) and usage against the spend cap (keys). */
const SpendSchema = z.object({
  period: z.string(),
  spent_usd: z.number(),
  cap_usd: z.number().nullable(),
  at_cap: z.boolean(),
});

export const platformRouter = router({
  whoami: authed({ jwt: true }, { method: 'GET', path: '/auth/whoami', tags: ['auth'], summary: 'Describe the calling credential', errorResponses: [401, 403] })
    .input(z.object({}).optional())
    .output(
      z.object({
        organization_id: z.string(),
        credential: z.enum(['api_key', 'access_token', 'session']),
        key_id: z.string().nullable(),
        sandbox: z.boolean(),
        scopes: z.array(z.enum(SCOPES)),
        user: z.object({ email: z.string(), role: z.enum(['admin', 'coder']) }).nullable(),
      }),
    )
    .query(({ ctx }) => {
      const p = ctx.principal;
      return {
        organization_id: p.orgId,
        credential: p.kind === 'api_key' ? 'api_key' : p.via === 'jwt' ? 'access_token' : 'session',
        key_id: p.kind === 'api_key' ? p.keyId : null,
        sandbox: p.kind === 'api_key' ? p.sandbox : false,
        scopes: scopesHeld(p),
        user: p.kind === 'user' ? { email: p.email, role: p.role } : null,
      };
    }),

  usage: authed(
    { jwt: false },
    {
      method: 'GET',
      path: '/usage',
      tags: ['billing'],
      summary: 'Spend this billing period against the cap',
      description:
        'Production spend against the organisation cap, and sandbox spend against the separate sandbox allowance. Amounts in USD; periods are calendar months (UTC).',
      errorResponses: [401, 403],
    },
  )
    .input(z.object({}).optional())
    .output(z.object({ production: SpendSchema, sandbox: SpendSchema }))
    .query(async ({ ctx }) => {
      const [prod, sand] = await Promise.all([spendStatus(ctx.db, ctx.principal.orgId, false), spendStatus(ctx.db, ctx.principal.orgId, true)]);
      const view = (s: typeof prod) => ({
        period: s.period,
        spent_usd: s.spent_micros / 1e6,
        cap_usd: s.cap_micros === null ? null : s.cap_micros / 1e6,
        at_cap: s.at_cap,
      });
      return { production: view(prod), sandbox: view(sand) };
    }),
});
