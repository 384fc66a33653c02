/**
 * The image check's verdicts kept beside a generation (`image-checks.jsonl.gz`: one `[url, kept]` line per image
 * on a checked host), so that the next harvest on it asks only about images it has not seen
 * (docs/incremental.md). A missing or damaged file means no verdicts: every image is asked about again.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';

export const IMAGE_CHECKS_FILE = 'image-checks.jsonl.gz';

/** Writes the verdicts into the generation folder `dir`. */
export async function writeImageVerdicts(dir: string, verdicts: ReadonlyMap<string, boolean>): Promise<void> {
  const lines = [...verdicts].map(([url, kept]) => JSON.stringify([url, kept ? 1 : 0]));
  await writeFile(path.join(dir, IMAGE_CHECKS_FILE), await promisify(gzip)(lines.length === 0 ? '' : `${lines.join('\n')}\n`));
}

/** The verdicts kept in the generation folder `dir`, or undefined when there are none to trust. */
export async function readImageVerdicts(dir: string): Promise<Map<string, boolean> | undefined> {
  try {
    const text = (await promisify(gunzip)(await readFile(path.join(dir, IMAGE_CHECKS_FILE)))).toString('utf8');
    const verdicts = new Map<string, boolean>();
    for (const line of text.split('\n')) {
      if (line === '') continue;
      const [url, kept] = JSON.parse(line) as [unknown, unknown];
      if (typeof url !== 'string' || (kept !== 0 && kept !== 1)) return undefined;
      verdicts.set(url, kept === 1);
    }
    return verdicts;
  } catch {
    return undefined;
  }
}
