-- Chat gateway model registry (issue 7). A row maps the name a caller uses to an OpenAI-compatible upstream.
-- org_id NULL = deployment-wide (operator, CLI); otherwise the model belongs to one organisation (its admins).
-- Upstream keys never live here: api_key_env names the environment variable that holds the key.
CREATE TABLE "llm_models" (
  "id" UUID NOT NULL,
  "org_id" UUID,
  "name" TEXT NOT NULL,
  "base_url" TEXT NOT NULL,
  "upstream_model" TEXT NOT NULL,
  "api_key_env" TEXT,
  "family" TEXT NOT NULL DEFAULT 'standard',
  "approved_for_phi" BOOLEAN NOT NULL DEFAULT false,
  "price_input_micros_per_1k" BIGINT NOT NULL DEFAULT 0,
  "price_output_micros_per_1k" BIGINT NOT NULL DEFAULT 0,
  "timeout_ms" INTEGER NOT NULL DEFAULT 60000,
  "created_by" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "llm_models_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "llm_models_family_check" CHECK ("family" IN ('standard', 'reasoning')),
  CONSTRAINT "llm_models_prices_check" CHECK ("price_input_micros_per_1k" >= 0 AND "price_output_micros_per_1k" >= 0),
  CONSTRAINT "llm_models_timeout_check" CHECK ("timeout_ms" BETWEEN 100 AND 300000),
  CONSTRAINT "llm_models_name_check" CHECK (char_length("name") BETWEEN 1 AND 100)
);
-- One name per scope (deployment-wide, or one organisation); an organisation's own model shadows a deployment one.
CREATE UNIQUE INDEX "llm_models_scope_name_key" ON "llm_models"(COALESCE("org_id", '00000000-0000-0000-0000-000000000000'::uuid), "name");
CREATE INDEX "llm_models_org_id_idx" ON "llm_models"("org_id");
ALTER TABLE "llm_models" ADD CONSTRAINT "llm_models_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
