/**
 * Which engine answers: the LLM engine when `AGENT_MODEL` names a model in the registry (the caller's organisation's
 * own first, then deployment-wide) that is approved for PHI and whose upstream key is set; otherwise the
 * deterministic engine, with the reason in `engine_note`. Read per request, so an operator can switch it (and tests
 * can) without a restart; `server/env.ts` validates the variable's shape at start-up.
 */
import type { Queryable } from '../db';
import { loadEnv } from '../env';
import { AppError } from '../errors';
import { resolveModel, upstreamKey, type ModelRecord } from '../gateway/registry';

export interface EngineChoice {
  engine: 'deterministic' | 'llm';
  model: ModelRecord | null;
  /** Why the deterministic engine answers although a model is configured (null when none is configured). */
  note: string | null;
}

export function agentModelName(): string | null {
  const v = loadEnv().AGENT_MODEL?.trim();
  return v ? v : null;
}

export async function chooseEngine(q: Queryable, orgId: string): Promise<EngineChoice> {
  const name = agentModelName();
  if (!name) return { engine: 'deterministic', model: null, note: null };
  const model = await resolveModel(q, orgId, name);
  if (!model)
    return {
      engine: 'deterministic',
      model: null,
      note: `AGENT_MODEL '${name}' is not in the model registry for this organisation; the deterministic engine answered.`,
    };
  if (!model.approvedForPhi)
    return { engine: 'deterministic', model: null, note: `AGENT_MODEL '${name}' is not approved for PHI traffic; the deterministic engine answered.` };
  try {
    upstreamKey(model);
  } catch (err) {
    if (err instanceof AppError)
      return {
        engine: 'deterministic',
        model: null,
        note: `AGENT_MODEL '${name}' cannot be reached: its key variable ${model.apiKeyEnv ?? ''} is not set; the deterministic engine answered.`,
      };
    throw err;
  }
  return { engine: 'llm', model, note: null };
}
