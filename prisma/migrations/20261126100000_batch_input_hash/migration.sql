-- Server-side re-submit guard (issue 14): a batch whose input is identical to a finished batch of the same
-- organisation answers 409 duplicate_batch unless the request sets allow_duplicate. input_hash is the SHA-256 of the
-- normalised cases, version and dialect (a hash only; the cases themselves stay where they already are). Older rows
-- have no hash and are never matched.
ALTER TABLE "drg_batches" ADD COLUMN "input_hash" TEXT;

CREATE INDEX "drg_batches_org_id_input_hash_idx" ON "drg_batches"("org_id", "input_hash");
