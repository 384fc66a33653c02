/**
 * A harvester's mirror of the collection, kept up to date by the change feed alone (docs/changes.md).
 *
 *   npx tsx docs/examples/mirror.ts https://data.example.org ./mirror
 *
 * The first run starts at page 1 of /v2/changes and replays every activity: a Create or Update fetches the
 * record's JSON-LD into ./mirror/records/, a Delete removes the file. Where it stopped (the page and how many
 * of its activities were applied) is saved in ./mirror/checkpoint.json after every page, so the next run (from
 * cron, say) resumes there: it re-reads that page, which may have grown if it was the last one, skips what it
 * applied already, and follows `next`. Run it again and again; it never needs a full re-harvest.
 *
 * Only Node built-ins and fetch; nothing of the service's own code, so it can be copied out as it is.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface Activity {
  type: string;
  object: { id: string; type: string };
  target?: { id: string };
  endTime: string;
}

interface Page {
  id: string;
  next?: { id: string };
  orderedItems: Activity[];
}

interface Checkpoint {
  /** The page to read next, and how many of its activities are applied already. */
  page: string;
  applied: number;
}

export interface MirrorResult {
  /** Activities applied in this run. */
  applied: number;
  /** Record URI → file of every record the mirror holds. */
  records: Map<string, string>;
}

/** The file that holds a record: its URI made safe as a file name. */
export const recordFile = (dir: string, uri: string): string => path.join(dir, 'records', `${encodeURIComponent(uri)}.jsonld`);

/** GET as JSON, waiting out a 429 (the v2 rate limit) as Retry-After says. */
async function getJson<T>(url: string): Promise<{ status: number; body?: T }> {
  for (;;) {
    const res = await fetch(url, { headers: { Accept: 'application/ld+json' }, redirect: 'manual' });
    if (res.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, 1000 * Number(res.headers.get('retry-after') ?? 1)));
      continue;
    }
    if (!res.ok) {
      await res.body?.cancel();
      return { status: res.status };
    }
    return { status: res.status, body: (await res.json()) as T };
  }
}

/**
 * Brings the mirror in `dir` up to date with the feed of the service at `base`. `locate` maps every URL the
 * feed names to the one to fetch (the identity, unless the service is reached by another address than its URIs).
 */
export async function mirror(base: string, dir: string, locate: (url: string) => string = (url) => url): Promise<MirrorResult> {
  await mkdir(path.join(dir, 'records'), { recursive: true });
  const checkpointFile = path.join(dir, 'checkpoint.json');
  let checkpoint: Checkpoint;
  try {
    checkpoint = JSON.parse(await readFile(checkpointFile, 'utf8')) as Checkpoint;
  } catch {
    const collection = await getJson<{ first: { id: string } }>(locate(`${base}/v2/changes`));
    if (!collection.body) throw new Error(`GET ${base}/v2/changes answered ${collection.status}`);
    checkpoint = { page: collection.body.first.id, applied: 0 };
  }
  const indexFile = path.join(dir, 'records.json');
  const records = new Map<string, string>(JSON.parse(await readFile(indexFile, 'utf8').catch(() => '[]')) as [string, string][]);
  let applied = 0;
  for (;;) {
    const { body: page, status } = await getJson<Page>(locate(checkpoint.page));
    if (!page) throw new Error(`GET ${checkpoint.page} answered ${status}`);
    for (const activity of page.orderedItems.slice(checkpoint.applied)) {
      const uri = activity.object.id;
      const file = recordFile(dir, uri);
      if (activity.type === 'Delete') {
        await rm(file, { force: true });
        records.delete(uri);
      } else {
        // A later activity may have removed the record again: then the feed says so further on.
        const record = await getJson<unknown>(locate(uri));
        if (record.body === undefined && ![301, 404, 410].includes(record.status)) throw new Error(`GET ${uri} answered ${record.status}`);
        if (record.body !== undefined) {
          await writeFile(`${file}.tmp`, JSON.stringify(record.body));
          await rename(`${file}.tmp`, file);
        }
        records.set(uri, file);
      }
      applied++;
    }
    checkpoint = page.next ? { page: page.next.id, applied: 0 } : { page: page.id, applied: page.orderedItems.length };
    // The record index first, then the checkpoint: after a crash, activities are re-applied, never skipped.
    await writeFile(indexFile, JSON.stringify([...records]));
    await writeFile(`${checkpointFile}.tmp`, JSON.stringify(checkpoint));
    await rename(`${checkpointFile}.tmp`, checkpointFile);
    if (!page.next) return { applied, records };
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [base, dir] = process.argv.slice(2);
  if (base === undefined || dir === undefined) {
    process.stderr.write('usage: npx tsx docs/examples/mirror.ts BASE_URL DIR\n');
    process.exit(2);
  }
  const result = await mirror(base.replace(/\/$/, ''), dir);
  process.stdout.write(`${result.applied} activities applied; the mirror holds ${result.records.size} records\n`);
}
