-- Organisation names are unique regardless of case ("Acme" = "acme"), enforced by the database.
DROP INDEX IF EXISTS "organizations_name_key";
CREATE UNIQUE INDEX "organizations_name_lower_key" ON "organizations" (lower("name"));
