import { router } from './trpc';
import { accountRouter } from './routers/account';
import { agentRouter } from './routers/agent';
import { batchRouter } from './routers/batch';
import { drgRouter } from './routers/drg';
import { gatewayRouter } from './routers/gateway';
import { platformRouter } from './routers/platform';
import { redactRouter } from './routers/redact';
import { searchRouter } from './routers/search';
import { tabularRouter } from './routers/tabular';
import { uploadRouter } from './routers/upload';

/** All routers. REST paths come from each procedure's `meta.openapi`; the UI calls them over tRPC. */
export const appRouter = router({
  account: accountRouter,
  agent: agentRouter,
  batch: batchRouter,
  drg: drgRouter,
  gateway: gatewayRouter,
  platform: platformRouter,
  redact: redactRouter,
  search: searchRouter,
  tabular: tabularRouter,
  upload: uploadRouter,
});

export type AppRouter = typeof appRouter;
