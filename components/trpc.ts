'use client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import type { AppRouter } from '@/server/api/root';

/** The UI's typed tRPC hooks (react-query). Pages import `useTRPC` from here. */
export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();
