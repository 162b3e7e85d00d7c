import { z } from 'zod';
import { authed, router } from '../trpc';
import { tabularNotes } from '../../tabular';

/** UI only (no REST path): ICD-10-CM tabular notes for the Search details panel (scope `search`). */
export const tabularRouter = router({
  notes: authed({ scope: 'search', jwt: true })
    .input(
      z.object({
        code: z
          .string()
          .trim()
          .min(3)
          .max(10)
          .regex(/^[A-Za-z0-9.]+$/),
      }),
    )
    .query(({ input }) => tabularNotes(input.code)),
});
