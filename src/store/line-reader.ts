/**
 * Reads a text file (plain or gzip, told by its magic bytes) streaming, as blocks of whole lines or as
 * numbered batches of lines. Bytes that are not UTF-8 are an error naming the line, not a silent U+FFFD.
 */
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

/** Consecutive lines of a file; `first` is the 1-based number of `lines[0]`. */
export interface LineBatch {
  lines: string[];
  first: number;
}

/** A file that cannot be read as UTF-8 text or gzip; `line` is where reading stopped. */
export class TextFileError extends Error {
  readonly line: number;
  readonly reason: string;

  constructor(line: number, reason: string) {
    super(reason);
    this.name = 'TextFileError';
    this.line = line;
    this.reason = reason;
  }
}

export interface ReadOptions {
  /** Called with every raw chunk of the file as stored (before gunzip), such as to hash it. */
  onRaw?: (chunk: Buffer) => void;
  /** Called after every block with the bytes of the file read so far. */
  onBytes?: (bytesRead: number) => void;
  /**
   * Blocks as Latin-1 text, one character per byte, for a reader that only splits on ASCII characters and
   * hashes bytes (the change log's snapshot): V8 decodes that several times faster than UTF-8 into strings of
   * non-ASCII text. The bytes are still checked to be UTF-8.
   */
  latin1?: boolean;
}

const CHUNK = 1 << 20;
const NEWLINE = 0x0a;

/** True when the file starts with the gzip magic bytes. */
export async function isGzipFile(file: string): Promise<boolean> {
  const fh = await open(file, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await fh.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await fh.close();
  }
}

/**
 * Streams `file` as text blocks that end at a line end (the last block may not); throws `TextFileError`
 * on broken gzip or UTF-8. Lines are counted only when `countLines` is set (error line numbers need it).
 */
export async function* readTextBlocks(file: string, options: ReadOptions = {}, countLines = false): AsyncGenerator<string> {
  const gzip = await isGzipFile(file);
  const raw = createReadStream(file, { highWaterMark: CHUNK });
  if (options.onRaw) raw.on('data', options.onRaw as (chunk: string | Buffer) => void);
  const bytes: Readable = gzip ? raw.pipe(createGunzip({ chunkSize: CHUNK })) : raw;
  // pipe() does not forward errors: a read error must end the iteration below.
  if (gzip) raw.on('error', (err) => bytes.destroy(err));
  let carry: Buffer = Buffer.alloc(0);
  let linesBefore = 1;
  const decode = (block: Buffer): string => {
    // Cutting at a newline byte never splits a UTF-8 sequence, so each block is checked on its own.
    if (!isUtf8(block)) throw new TextFileError(linesBefore + badUtf8Line(block), 'the text is not valid UTF-8');
    if (countLines) linesBefore += countNewlines(block);
    return block.toString(options.latin1 === true ? 'latin1' : 'utf8');
  };
  try {
    for await (const chunk of bytes as AsyncIterable<Buffer>) {
      const cut = chunk.lastIndexOf(NEWLINE);
      if (cut < 0) {
        carry = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
        continue;
      }
      const block = carry.length === 0 ? chunk.subarray(0, cut + 1) : Buffer.concat([carry, chunk.subarray(0, cut + 1)]);
      carry = chunk.subarray(cut + 1);
      const text = decode(block);
      options.onBytes?.(raw.bytesRead);
      yield text;
    }
    options.onBytes?.(raw.bytesRead);
    if (carry.length > 0) yield decode(carry);
  } catch (err) {
    if (err instanceof TextFileError) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (code.startsWith('Z_')) {
      throw new TextFileError(linesBefore, `the gzip data is corrupt or truncated (${(err as Error).message})`);
    }
    throw err;
  } finally {
    raw.destroy();
    bytes.destroy();
  }
}

/** Streams the lines of `file` in numbered batches; throws `TextFileError` on broken gzip or UTF-8. */
export async function* readLineBatches(file: string, options: ReadOptions = {}): AsyncGenerator<LineBatch> {
  let first = 1;
  for await (const block of readTextBlocks(file, options, true)) {
    const lines = block.split('\n');
    // A block ends with "\n", which leaves one empty string after the split.
    if (lines[lines.length - 1] === '') lines.pop();
    yield { lines, first };
    first += lines.length;
  }
}

function countNewlines(block: Buffer): number {
  let n = 0;
  for (let i = block.indexOf(NEWLINE); i >= 0; i = block.indexOf(NEWLINE, i + 1)) n++;
  return n;
}

/** Offset, in lines from the start of `block`, of the first line that is not UTF-8. */
function badUtf8Line(block: Buffer): number {
  let start = 0;
  for (let line = 0; ; line++) {
    const nl = block.indexOf(NEWLINE, start);
    if (!isUtf8(block.subarray(start, nl < 0 ? block.length : nl))) return line;
    if (nl < 0) return line;
    start = nl + 1;
  }
}

/**
 * Text that arrives in chunks cut anywhere (a generation's stream, as a tap sees it), given back as whole lines:
 * each chunk yields the lines it completes, and the unfinished last one waits for the next chunk.
 */
export class WholeLines {
  private rest = '';

  /** The lines `chunk` completes, each with its line end ('' when it completes none). */
  take(chunk: string): string {
    const text = this.rest + chunk;
    const last = text.lastIndexOf('\n');
    this.rest = text.slice(last + 1);
    return last < 0 ? '' : text.slice(0, last + 1);
  }

  /** The text has ended: its unfinished last line ('' when it ended with a line end). */
  end(): string {
    const rest = this.rest;
    this.rest = '';
    return rest;
  }
}
