import type { AnyRouter } from '@trpc/server';
import type { z } from 'zod';
import type { Meta } from './trpc';

/**
 * The one place that reads tRPC's and zod's internals: the procedures of a router with their meta and the fields of
 * their object input. The HTTP door routes REST calls with it (and types query parameters from the fields); the
 * OpenAPI completion reads the REST meta. `procedures.test.ts` fails if a tRPC or zod upgrade moves these internals
 * (`router._def.procedures`, `procedure._def.{type,meta,inputs}`, zod's `.shape` and `def.innerType`).
 */
export interface ProcedureInfo {
  /** Dotted path, e.g. `drg.classify`. */
  path: string;
  type: 'query' | 'mutation' | 'subscription';
  meta: Meta | undefined;
  /** The fields of the input when it is a zod object (or an optional/defaulted one); undefined otherwise. */
  inputShape: Record<string, z.ZodType> | undefined;
}

interface ProcedureDef {
  type: ProcedureInfo['type'];
  meta?: Meta;
  inputs?: unknown[];
}

type ZodObjectLike = { shape?: Record<string, z.ZodType>; def?: { innerType?: { shape?: Record<string, z.ZodType> } } };

export function listProcedures(router: AnyRouter): ProcedureInfo[] {
  const procedures = (router._def as unknown as { procedures?: Record<string, { _def?: ProcedureDef }> }).procedures;
  if (!procedures || typeof procedures !== 'object') throw new Error('tRPC internals changed: router._def.procedures is missing');
  return Object.entries(procedures).map(([path, proc]) => {
    const def = proc._def;
    if (!def || !['query', 'mutation', 'subscription'].includes(def.type)) throw new Error(`tRPC internals changed: procedure ${path} has no _def.type`);
    const input = def.inputs?.[0] as ZodObjectLike | undefined;
    return { path, type: def.type, meta: def.meta, inputShape: input?.shape ?? input?.def?.innerType?.shape };
  });
}
