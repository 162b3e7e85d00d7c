import { z } from 'zod';
import { authed, router, type AuthedContext } from '../trpc';
import { actorOf } from '../../auth/principal';
import { writeAudit } from '../../auth/audit';
import { chatCompletion } from '../../gateway/core';
import { addModel, listModels, MAX_TIMEOUT_MS, MIN_TIMEOUT_MS, MODEL_FAMILIES, orgKeyEnvPrefix, removeModel, toModelView } from '../../gateway/registry';
import { MAX_TOKENS_LIMIT } from '../../gateway/schema';

/**
 * UI functions of the chat gateway (not REST: the REST doors are the OpenAI-compatible routes in
 * server/http/gateway.ts). The Models page (admins: the organisation's own models; deployment-wide ones are read
 * only) and the Chat playground (every signed-in user), which calls the same core as POST /llm/chat/completions.
 */
const signedIn = authed({ userOnly: true });
const admin = authed({ userOnly: true, role: 'admin' });

const orgOf = (ctx: AuthedContext) => ctx.principal.orgId;

const ModelInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  base_url: z.string().trim().min(1).max(500),
  upstream_model: z.string().trim().min(1).max(200),
  api_key_env: z.string().trim().max(64).nullable().optional(),
  family: z.enum(MODEL_FAMILIES).default('standard'),
  approved_for_phi: z.boolean().default(false),
  price_input_per_1k_usd: z.number().min(0).max(1000).default(0),
  price_output_per_1k_usd: z.number().min(0).max(1000).default(0),
  timeout_ms: z.number().int().min(MIN_TIMEOUT_MS).max(MAX_TIMEOUT_MS).default(60_000),
});

const PlaygroundMessage = z.strictObject({ role: z.enum(['user', 'assistant']), content: z.string().min(1).max(100_000) });

export const gatewayRouter = router({
  /** Models this organisation can use. Admins also get upstream details (never key values). */
  models: signedIn.query(async ({ ctx }) => {
    const isAdmin = ctx.principal.kind === 'user' && ctx.principal.role === 'admin';
    const views = (await listModels(ctx.db, { orgId: orgOf(ctx) })).map((m) => toModelView(m));
    return {
      key_env_prefix: orgKeyEnvPrefix(orgOf(ctx)),
      models: views.map((v) => (isAdmin ? v : { ...v, base_url: '', upstream_model: '', api_key_env: null, created_by: null })),
    };
  }),

  addModel: admin.input(ModelInputSchema).mutation(async ({ ctx, input }) => {
    const m = await addModel(ctx.db, input, { orgId: orgOf(ctx), actor: actorOf(ctx.principal) });
    await writeAudit(ctx.db, {
      orgId: orgOf(ctx),
      actor: actorOf(ctx.principal),
      action: 'model.add',
      targetId: m.id,
      details: { name: m.name, approved_for_phi: m.approvedForPhi, family: m.family },
    });
    return toModelView(m);
  }),

  removeModel: admin.input(z.strictObject({ id: z.string().uuid() })).mutation(async ({ ctx, input }) => {
    const m = await removeModel(ctx.db, input.id, { orgId: orgOf(ctx) });
    await writeAudit(ctx.db, { orgId: orgOf(ctx), actor: actorOf(ctx.principal), action: 'model.remove', targetId: m.id, details: { name: m.name } });
    return { id: m.id };
  }),

  /**
   * One playground turn: the whole conversation so far goes through the gateway core (redaction with one mapping,
   * upstream, re-hydration, receipt, billing). Returns what the user sees and what the model received and answered
   * (placeholders only). The mapping is not returned.
   */
  playground: signedIn
    .input(
      z.strictObject({
        model: z.string().min(1).max(200),
        messages: z.array(PlaygroundMessage).min(1).max(100),
        system: z.string().max(20_000).optional(),
        redact_only: z.boolean().default(false),
        max_tokens: z.number().int().min(1).max(MAX_TOKENS_LIMIT).optional(),
        temperature: z.number().min(0).max(2).optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const messages = [...(input.system ? [{ role: 'system' as const, content: input.system }] : []), ...input.messages];
      const r = await chatCompletion(
        ctx.db,
        ctx.principal,
        { model: input.model, messages, redact_only: input.redact_only, max_tokens: input.max_tokens, temperature: input.temperature },
        { requestId: ctx.requestId, source: 'chat' },
      );
      const sent = (r.upstream_request.messages as Array<{ role: string; content: string }>).map((m) => ({
        role: m.role,
        content: typeof m.content === 'string' ? m.content : '',
      }));
      return {
        answer: r.completion.choices[0]!.message.content ?? '',
        finish_reason: r.completion.choices[0]!.finish_reason,
        sent_messages: sent,
        model_answer: r.upstream_answer.content ?? '',
        receipt: r.receipt,
        usage: r.usage,
        cost_micros: r.cost_micros,
        upstream_model: r.model.upstreamModel,
      };
    }),
});
