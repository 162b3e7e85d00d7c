-- Platform: organisations, users, API keys, audit log, billing ledger and spend counters.
CREATE TABLE "organizations" (
  "id" UUID NOT NULL,
  "name" TEXT NOT NULL,
  "spend_cap_micros" BIGINT,
  "sandbox_allowance_micros" BIGINT NOT NULL DEFAULT 5000000,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "organizations_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "organizations_name_key" ON "organizations"("name");

CREATE TABLE "users" (
  "id" UUID NOT NULL,
  "org_id" UUID NOT NULL,
  "email" TEXT NOT NULL,
  "password_hash" TEXT NOT NULL,
  "role" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "last_login_at" TIMESTAMPTZ(3),
  CONSTRAINT "users_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "users_role_check" CHECK ("role" IN ('admin', 'coder'))
);
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");
CREATE INDEX "users_org_id_idx" ON "users"("org_id");
ALTER TABLE "users" ADD CONSTRAINT "users_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "api_keys" (
  "id" UUID NOT NULL,
  "org_id" UUID NOT NULL,
  "lookup_id" TEXT NOT NULL,
  "key_hash" TEXT NOT NULL,
  "prefix" TEXT NOT NULL,
  "last4" TEXT NOT NULL,
  "name" TEXT,
  "scopes" TEXT[],
  "sandbox" BOOLEAN NOT NULL DEFAULT false,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "created_by" TEXT,
  "last_used_at" TIMESTAMPTZ(3),
  "expires_at" TIMESTAMPTZ(3),
  "revoked_at" TIMESTAMPTZ(3),
  "revoked_by" TEXT,
  CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "api_keys_lookup_id_key" ON "api_keys"("lookup_id");
CREATE INDEX "api_keys_org_id_idx" ON "api_keys"("org_id");
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "audit_log" (
  "id" BIGSERIAL NOT NULL,
  "org_id" UUID NOT NULL,
  "actor" TEXT NOT NULL,
  "action" TEXT NOT NULL,
  "target_id" TEXT,
  "details" JSONB,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "audit_log_org_id_created_at_idx" ON "audit_log"("org_id", "created_at");
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "ledger" (
  "id" BIGSERIAL NOT NULL,
  "org_id" UUID NOT NULL,
  "api_key_id" UUID,
  "user_id" UUID,
  "service_type" TEXT NOT NULL,
  "units" INTEGER NOT NULL DEFAULT 1,
  "cost_micros" BIGINT NOT NULL DEFAULT 0,
  "sandbox" BOOLEAN NOT NULL DEFAULT false,
  "invoiced" BOOLEAN NOT NULL DEFAULT true,
  "idempotency_ref" TEXT NOT NULL,
  "period" TEXT NOT NULL,
  "details" JSONB,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "ledger_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "ledger_cost_nonnegative" CHECK ("cost_micros" >= 0)
);
CREATE UNIQUE INDEX "ledger_idempotency_ref_key" ON "ledger"("idempotency_ref");
CREATE INDEX "ledger_org_id_created_at_idx" ON "ledger"("org_id", "created_at");
ALTER TABLE "ledger" ADD CONSTRAINT "ledger_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "spend_counters" (
  "org_id" UUID NOT NULL,
  "period" TEXT NOT NULL,
  "sandbox" BOOLEAN NOT NULL,
  "spent_micros" BIGINT NOT NULL DEFAULT 0,
  CONSTRAINT "spend_counters_pkey" PRIMARY KEY ("org_id", "period", "sandbox")
);
