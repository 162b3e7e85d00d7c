/**
 * Limits of a DRG batch (SPEC §4.5, §8). Pure constants, shared with the browser (the Batches page checks a file
 * before it uploads it), so this module imports nothing.
 */
export const MAX_CASES = 1000;
/**
 * Largest case file accepted by `file_id`, checked before the file is read or decoded. 1000 cases, even written
 * as pretty-printed JSON with every optional field at its longest, stay well under 2 MiB; a CSV row is ~60 bytes.
 */
export const MAX_CASE_FILE_BYTES = 4 * 1024 * 1024;
