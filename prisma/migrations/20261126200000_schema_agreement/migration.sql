-- schema.prisma is the source of truth (tests/api/schema-agreement.test.ts). Where the migrations disagreed with it:
-- api_keys.scopes is a list, which Prisma cannot declare nullable; a key with no scopes has '{}' (= all scopes).
UPDATE "api_keys" SET "scopes" = '{}' WHERE "scopes" IS NULL;
ALTER TABLE "api_keys" ALTER COLUMN "scopes" SET NOT NULL;
