/**
 * Streaming JSON Lines reader with schema validation, so large source files never sit in memory as one string.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { z } from 'zod';

/** Yields each non-blank line parsed by `schema`; throws `<file>:<line>: <reason>` on the first bad line. */
export async function* readJsonLines<S extends z.ZodType>(
  path: string,
  schema: S,
): AsyncGenerator<{ value: z.infer<S>; line: number }> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line += 1;
    if (text.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw new Error(`${path}:${line}: not JSON (${(err as Error).message})`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`${path}:${line}: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'}`);
    }
    yield { value: parsed.data, line };
  }
}
