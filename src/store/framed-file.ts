/**
 * A file of derived answers beside a generation (the stored index, the record answers): one JSON header line,
 * then a payload, `gzip(v8.serialize(value))`, whose length and sha256 the header carries. Written whole or not
 * at all (durable-write.ts); read back, every way it can be damaged is named: `corrupt: …` or `truncated: …`.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { deserialize, serialize } from 'node:v8';
import { gunzip as gunzipCallback, gzip as gzipCallback } from 'node:zlib';

const gzip = promisify(gzipCallback);
const gunzip = promisify(gunzipCallback);
const MAX_HEADER_BYTES = 1 << 16;

/** The bytes of a framed file: `header` (its `payload` field added) and `value` as the payload. */
export async function framedBytes(header: Record<string, unknown>, value: unknown): Promise<Buffer> {
  const body = await gzip(serialize(value), { level: 6 });
  const line = JSON.stringify({ ...header, payload: { bytes: body.length, sha256: createHash('sha256').update(body).digest('hex') } });
  return Buffer.concat([Buffer.from(`${line}\n`), body]);
}

/** A framed file's header, and its payload, read (and checked against the header) only when asked for. */
export function unframe(bytes: Buffer): { header: Record<string, unknown>; payload(): Promise<unknown> } {
  const newline = bytes.subarray(0, MAX_HEADER_BYTES).indexOf(10);
  if (newline < 0) throw new Error('corrupt: no header line');
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(bytes.subarray(0, newline).toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new Error('corrupt: the header is not JSON');
  }
  const body = bytes.subarray(newline + 1);
  const declared = header.payload as { bytes?: unknown; sha256?: unknown } | undefined;
  return {
    header,
    payload: async () => {
      if (body.length !== declared?.bytes) throw new Error(`truncated: ${body.length} payload bytes, the header says ${String(declared?.bytes)}`);
      if (createHash('sha256').update(body).digest('hex') !== declared.sha256) throw new Error('corrupt: the payload checksum differs');
      try {
        return deserialize(await gunzip(body)) as unknown;
      } catch (err) {
        throw new Error(`corrupt: ${(err as Error).message}`);
      }
    },
  };
}
