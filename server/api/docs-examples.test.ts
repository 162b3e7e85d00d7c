import { describe, expect, it } from 'vitest';
import { EXAMPLE_BODIES } from '@/components/api-reference';
import { ClassifyRequest } from './schemas/drg';
import { SearchInputSchema } from '../search/schema';
import { RedactInputSchema } from './routers/redact';
import { AgentRequestSchema } from '../agent/schema';
import { SubmitInput } from './routers/batch';
import { getGrouper } from '../drg';

/** The API reference's "Try it" bodies are working examples: each passes its operation's input schema. */
describe('API reference example bodies', () => {
  const schemas: Record<string, { safeParse: (v: unknown) => { success: boolean; error?: unknown } }> = {
    'post /drg/classify': ClassifyRequest,
    'post /search': SearchInputSchema,
    'post /redact': RedactInputSchema,
    'post /drg/agent': AgentRequestSchema,
    'post /drg/batch': SubmitInput,
  };
  it('has a schema-valid body for every listed operation', () => {
    expect(Object.keys(EXAMPLE_BODIES).sort()).toEqual(Object.keys(schemas).sort());
    for (const [op, body] of Object.entries(EXAMPLE_BODIES)) {
      const r = schemas[op]!.safeParse(body);
      expect(r.success, `${op}: ${JSON.stringify(r.error)}`).toBe(true);
    }
  });
  it('uses codes the default grouper accepts', async () => {
    const g = await getGrouper('v40');
    const c = EXAMPLE_BODIES['post /drg/classify'] as { dx_codes: string[]; pr_codes: string[] };
    for (const code of c.dx_codes) expect(g.isValidCode(code, 'dx'), code).toBe(true);
    for (const code of c.pr_codes) expect(g.isValidCode(code, 'pr'), code).toBe(true);
  });
});
