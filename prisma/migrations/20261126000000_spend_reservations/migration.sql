-- Chat spend caps that hold under concurrency (issue 12): a request whose price is only known afterwards reserves its
-- worst case first. spent_micros + reserved_micros never passes the cap; reservations are settled to the real cost,
-- released on failure, or released by the sweep once they expire (their request died with its process).
ALTER TABLE "spend_counters" ADD COLUMN "reserved_micros" BIGINT NOT NULL DEFAULT 0;

CREATE TABLE "spend_reservations" (
  "id" UUID NOT NULL,
  "org_id" UUID NOT NULL,
  "period" TEXT NOT NULL,
  "sandbox" BOOLEAN NOT NULL,
  "amount_micros" BIGINT NOT NULL,
  "service_type" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "spend_reservations_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "spend_reservations_amount_check" CHECK ("amount_micros" >= 0),
  CONSTRAINT "spend_reservations_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE INDEX "spend_reservations_expires_at_idx" ON "spend_reservations"("expires_at");
