/**
 * A small binary cache for compiled tables: a JSON header for plain values (strings, numbers, string lists) and the
 * typed arrays appended 8-byte aligned. Cache problems never fail the caller: a missing, stale or unreadable file
 * means compiling again, an unwritable folder means keeping the in-memory form.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

type Typed = Int32Array | Uint32Array | Uint8Array | Uint16Array;
const CTORS = { Int32Array, Uint32Array, Uint8Array, Uint16Array } as const;
const MAGIC = 'MCEC';

/** A key for a set of source files: names, sizes and modification times, plus an extra string. */
export function sourceKeyOf(files: string[], extra: string): string {
  const h = crypto.createHash('sha256').update(extra);
  for (const f of files) {
    try {
      const st = fs.statSync(f);
      h.update(`${f}|${st.size}|${st.mtimeMs};`);
    } catch {
      h.update(`${f}|missing;`);
    }
  }
  return h.digest('hex').slice(0, 16);
}

function isTyped(v: unknown): v is Typed {
  return v instanceof Int32Array || v instanceof Uint32Array || v instanceof Uint8Array || v instanceof Uint16Array;
}

export function writeCache(folder: string, stem: string, key: string, value: object): void {
  try {
    fs.mkdirSync(folder, { recursive: true });
    const header: Record<string, unknown> = { key };
    const arrays: Array<{ name: string; type: string; offset: number; length: number }> = [];
    const parts: Typed[] = [];
    let offset = 0;
    for (const [name, v] of Object.entries(value)) {
      if (isTyped(v)) {
        arrays.push({ name, type: v.constructor.name, offset, length: v.length });
        parts.push(v);
        offset += Math.ceil(v.byteLength / 8) * 8;
      } else header[name] = v;
    }
    header.__arrays = arrays;
    const json = Buffer.from(JSON.stringify(header), 'utf8');
    const headLen = 8 + json.length;
    const base = headLen + ((8 - (headLen % 8)) % 8);
    const out = Buffer.alloc(base + offset);
    out.write(MAGIC, 0, 'latin1');
    out.writeUInt32LE(json.length, 4);
    json.copy(out, 8);
    arrays.forEach((a, i) => Buffer.from(parts[i].buffer, parts[i].byteOffset, parts[i].byteLength).copy(out, base + a.offset));
    for (const f of fs.readdirSync(folder)) if (f.startsWith(`${stem}-`) && f.endsWith('.bin')) fs.rmSync(path.join(folder, f), { force: true });
    const file = path.join(folder, `${stem}-${key}.bin`);
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, out);
    fs.renameSync(tmp, file);
  } catch {
    // read-only cache folder: keep going with the in-memory form
  }
}

export function readCache<T>(folder: string, stem: string, key: string): T | null {
  try {
    const buf = fs.readFileSync(path.join(folder, `${stem}-${key}.bin`));
    if (buf.toString('latin1', 0, 4) !== MAGIC) return null;
    const jsonLen = buf.readUInt32LE(4);
    const header = JSON.parse(buf.toString('utf8', 8, 8 + jsonLen)) as Record<string, unknown>;
    if (header.key !== key) return null;
    const headLen = 8 + jsonLen;
    const base = headLen + ((8 - (headLen % 8)) % 8);
    const data = new ArrayBuffer(buf.length - base);
    new Uint8Array(data).set(buf.subarray(base));
    const out: Record<string, unknown> = { ...header };
    for (const a of header.__arrays as Array<{ name: string; type: keyof typeof CTORS; offset: number; length: number }>) {
      out[a.name] = new CTORS[a.type](data, a.offset, a.length);
    }
    delete out.__arrays;
    delete out.key;
    return out as T;
  } catch {
    return null;
  }
}
