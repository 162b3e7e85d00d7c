-- Asynchronous DRG batch jobs (SPEC §2.5, §3, §4.5, §4.6). A job, its cases (one row per case, results written
-- as they complete) and per-chunk attempt counters. Billing rows live in the ledger with the unique
-- idempotency_ref 'drg_batch:<job id>:<case index>'.
CREATE TABLE "drg_batches" (
  "id" UUID NOT NULL,
  "org_id" UUID NOT NULL,
  "api_key_id" UUID,
  "user_id" UUID,
  "sandbox" BOOLEAN NOT NULL DEFAULT false,
  "idempotency_key" TEXT NOT NULL,
  "request_hash" TEXT NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'queued',
  "version" TEXT NOT NULL,
  "source_dialect" TEXT NOT NULL DEFAULT 'icd10cm',
  "file_id" UUID,
  "total_cases" INTEGER NOT NULL,
  "done_count" INTEGER NOT NULL DEFAULT 0,
  "failed_count" INTEGER NOT NULL DEFAULT 0,
  "chunk_size" INTEGER NOT NULL,
  "price_micros" BIGINT NOT NULL,
  "billed_micros" BIGINT NOT NULL DEFAULT 0,
  "park_count" INTEGER NOT NULL DEFAULT 0,
  "parked_at" TIMESTAMPTZ(3),
  "resumed_at" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "started_at" TIMESTAMPTZ(3),
  "finished_at" TIMESTAMPTZ(3),
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "drg_batches_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "drg_batches_status_check" CHECK ("status" IN ('queued', 'running', 'done', 'failed', 'parked')),
  CONSTRAINT "drg_batches_total_check" CHECK ("total_cases" BETWEEN 1 AND 1000),
  CONSTRAINT "drg_batches_counts_check" CHECK ("done_count" >= 0 AND "failed_count" >= 0 AND "done_count" + "failed_count" <= "total_cases")
);
CREATE UNIQUE INDEX "drg_batches_org_id_idempotency_key_key" ON "drg_batches"("org_id", "idempotency_key");
CREATE INDEX "drg_batches_org_id_created_at_idx" ON "drg_batches"("org_id", "created_at");
CREATE INDEX "drg_batches_parked_idx" ON "drg_batches"("id") WHERE "status" = 'parked';
ALTER TABLE "drg_batches" ADD CONSTRAINT "drg_batches_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "drg_batch_cases" (
  "batch_id" UUID NOT NULL,
  "idx" INTEGER NOT NULL,
  "case_ref" TEXT NOT NULL,
  "input" JSONB NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'pending',
  "result" JSONB,
  "error_code" TEXT,
  "error" TEXT,
  "completed_at" TIMESTAMPTZ(3),
  CONSTRAINT "drg_batch_cases_pkey" PRIMARY KEY ("batch_id", "idx"),
  CONSTRAINT "drg_batch_cases_status_check" CHECK ("status" IN ('pending', 'done', 'failed')),
  CONSTRAINT "drg_batch_cases_outcome_check" CHECK (
    ("status" = 'pending' AND "result" IS NULL AND "error" IS NULL)
    OR ("status" = 'done' AND "result" IS NOT NULL AND "error" IS NULL)
    OR ("status" = 'failed' AND "result" IS NULL AND "error" IS NOT NULL))
);
CREATE UNIQUE INDEX "drg_batch_cases_batch_id_case_ref_key" ON "drg_batch_cases"("batch_id", "case_ref");
CREATE INDEX "drg_batch_cases_pending_idx" ON "drg_batch_cases"("batch_id", "idx") WHERE "status" = 'pending';
ALTER TABLE "drg_batch_cases" ADD CONSTRAINT "drg_batch_cases_batch_id_fkey" FOREIGN KEY ("batch_id") REFERENCES "drg_batches"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Attempts per chunk, counted outside the chunk's transaction so that a chunk which keeps crashing its worker is
-- eventually given up (its remaining cases fail with error_code processing_failed) instead of retrying forever.
CREATE TABLE "drg_batch_chunks" (
  "batch_id" UUID NOT NULL,
  "chunk" INTEGER NOT NULL,
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "last_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "drg_batch_chunks_pkey" PRIMARY KEY ("batch_id", "chunk")
);
ALTER TABLE "drg_batch_chunks" ADD CONSTRAINT "drg_batch_chunks_batch_id_fkey" FOREIGN KEY ("batch_id") REFERENCES "drg_batches"("id") ON DELETE CASCADE ON UPDATE CASCADE;
