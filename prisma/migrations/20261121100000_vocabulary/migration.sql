-- OMOP vocabulary tables (Athena shape) and the search structures built from them.
-- Column names follow the OMOP CDM v5.4 DDL. Secondary indexes and primary keys on the large tables are created by
-- the importer after a bulk load (server/search/importer.ts), not here, so COPY runs against bare heaps.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE IF NOT EXISTS "vocabulary" (
  "vocabulary_id" TEXT NOT NULL,
  "vocabulary_name" TEXT,
  "vocabulary_reference" TEXT,
  "vocabulary_version" TEXT,
  "vocabulary_concept_id" INTEGER
);

CREATE TABLE IF NOT EXISTS "domain" (
  "domain_id" TEXT NOT NULL,
  "domain_name" TEXT,
  "domain_concept_id" INTEGER
);

CREATE TABLE IF NOT EXISTS "concept_class" (
  "concept_class_id" TEXT NOT NULL,
  "concept_class_name" TEXT,
  "concept_class_concept_id" INTEGER
);

CREATE TABLE IF NOT EXISTS "relationship" (
  "relationship_id" TEXT NOT NULL,
  "relationship_name" TEXT,
  "is_hierarchical" TEXT,
  "defines_ancestry" TEXT,
  "reverse_relationship_id" TEXT,
  "relationship_concept_id" INTEGER
);

CREATE TABLE IF NOT EXISTS "concept" (
  "concept_id" INTEGER NOT NULL,
  "concept_name" TEXT,
  "domain_id" TEXT,
  "vocabulary_id" TEXT,
  "concept_class_id" TEXT,
  "standard_concept" TEXT,
  "concept_code" TEXT,
  "valid_start_date" DATE,
  "valid_end_date" DATE,
  "invalid_reason" TEXT
);

CREATE TABLE IF NOT EXISTS "concept_synonym" (
  "concept_id" INTEGER NOT NULL,
  "concept_synonym_name" TEXT,
  "language_concept_id" INTEGER
);

CREATE TABLE IF NOT EXISTS "concept_relationship" (
  "concept_id_1" INTEGER NOT NULL,
  "concept_id_2" INTEGER NOT NULL,
  "relationship_id" TEXT NOT NULL,
  "valid_start_date" DATE,
  "valid_end_date" DATE,
  "invalid_reason" TEXT
);

CREATE TABLE IF NOT EXISTS "concept_ancestor" (
  "ancestor_concept_id" INTEGER NOT NULL,
  "descendant_concept_id" INTEGER NOT NULL,
  "min_levels_of_separation" INTEGER,
  "max_levels_of_separation" INTEGER
);

-- One row per searchable text (a concept's name or one of its synonyms), with a tsvector per configured
-- full-text language (tsv_english by default; the importer adds tsv_<language> columns for SEARCH_FTS_LANGUAGES).
CREATE TABLE IF NOT EXISTS "search_term" (
  "term_id" INTEGER NOT NULL,
  "concept_id" INTEGER NOT NULL,
  "term" TEXT NOT NULL,
  "is_name" BOOLEAN NOT NULL,
  "vocabulary_id" TEXT NOT NULL,
  "domain_id" TEXT,
  "tsv_english" TSVECTOR,
  CONSTRAINT "search_term_pkey" PRIMARY KEY ("term_id")
);

-- The vocabulary's own word list (with document frequency), trigram-indexed for spelling correction.
CREATE TABLE IF NOT EXISTS "search_lexicon" (
  "word" TEXT NOT NULL,
  "df" INTEGER NOT NULL,
  CONSTRAINT "search_lexicon_pkey" PRIMARY KEY ("word")
);

-- Import bookkeeping: one row per import attempt; the newest row is the vocabulary in the database.
CREATE TABLE IF NOT EXISTS "vocab_import" (
  "id" SERIAL NOT NULL,
  "fingerprint" TEXT NOT NULL,
  "source" TEXT NOT NULL,
  "status" TEXT NOT NULL,
  "progress" JSONB NOT NULL DEFAULT '{}',
  "counts" JSONB NOT NULL DEFAULT '{}',
  "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "finished_at" TIMESTAMPTZ(3),
  CONSTRAINT "vocab_import_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "vocab_import_status_check" CHECK ("status" IN ('loading', 'complete', 'failed'))
);
