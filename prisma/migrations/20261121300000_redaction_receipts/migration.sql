-- Redaction receipts: METADATA ONLY (SPEC §2.6 retention "metadata_only"). Never the text, never the mapping, never
-- an original value: counts per entity type, engine version, status, who called and when. Written by the redact
-- endpoint, the chat gateway and the agent through server/redact/receipts-store.ts, read by the receipt inspector.
CREATE TABLE "redaction_receipts" (
  "id" UUID NOT NULL,
  "org_id" UUID NOT NULL,
  "api_key_id" UUID,
  "user_id" UUID,
  "source" TEXT NOT NULL,
  "status" TEXT NOT NULL,
  "failure_reason" TEXT,
  "receipt_version" INTEGER NOT NULL,
  "engine" TEXT NOT NULL,
  "engine_version" TEXT NOT NULL,
  "rehydration_complete" BOOLEAN,
  "unresolved_placeholder_count" INTEGER NOT NULL DEFAULT 0,
  "client_preredacted" BOOLEAN NOT NULL DEFAULT false,
  "entities_redacted" JSONB NOT NULL DEFAULT '{}',
  "entities_total" INTEGER NOT NULL DEFAULT 0,
  "free_text_fields" INTEGER NOT NULL DEFAULT 0,
  "client_asserted_deidentified" BOOLEAN NOT NULL DEFAULT false,
  "redacted_anyway" BOOLEAN NOT NULL DEFAULT false,
  "input_chars" INTEGER,
  "duration_ms" INTEGER,
  "request_id" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "redaction_receipts_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "redaction_receipts_source_check" CHECK ("source" IN ('redact', 'chat', 'agent')),
  CONSTRAINT "redaction_receipts_status_check" CHECK ("status" IN ('ok', 'failed_closed')),
  CONSTRAINT "redaction_receipts_failure_reason_check" CHECK ("failure_reason" IS NULL OR "failure_reason" IN ('recognizer_error', 'time_budget_exceeded', 'invalid_input', 'configuration', 'internal_error'))
);
CREATE INDEX "redaction_receipts_org_id_created_at_idx" ON "redaction_receipts"("org_id", "created_at" DESC, "id" DESC);
ALTER TABLE "redaction_receipts" ADD CONSTRAINT "redaction_receipts_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
