-- Uploads through presigned, single-use URLs. Files live in storage (local disk or S3); this table holds metadata.
CREATE TABLE "uploads" (
  "id" UUID NOT NULL,
  "org_id" UUID NOT NULL,
  "filename" TEXT NOT NULL,
  "content_type" TEXT,
  "max_bytes" BIGINT NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'pending',
  "size_bytes" BIGINT,
  "sha256" TEXT,
  "storage" TEXT NOT NULL,
  "storage_key" TEXT NOT NULL,
  "nonce_hash" TEXT NOT NULL,
  "created_by_key" UUID,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  "uploaded_at" TIMESTAMPTZ(3),
  CONSTRAINT "uploads_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "uploads_status_check" CHECK ("status" IN ('pending', 'uploading', 'uploaded', 'failed'))
);
CREATE INDEX "uploads_org_id_created_at_idx" ON "uploads"("org_id", "created_at");
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
