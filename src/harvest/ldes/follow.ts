/**
 * Follows an event stream (docs/ldes-harvest.md) from its URL through every node its pages link, into a
 * folder that keeps what was read: `journal.ndjson`, one line per member read (its IRI, the page, the record it
 * is a version of, its time, its statements as N-Quads), and `state.json`, the nodes known to be complete (never
 * read again), the nodes to read again next time (the mutable ones), and the nodes still to read.
 *
 * Page by page: the page's members are appended to the journal and synced, then the state is written (to a
 * temporary file, renamed over the old one). A process killed at any moment leaves either the page not done (it
 * is read again, and its members are journalled again: harmless, the latest version of a record wins) or done.
 * A run that fails (a server that keeps answering 5xx, a timeout, a broken page, a bad member) stops there,
 * naming the page, with everything before it kept: the next run resumes with the nodes still to read.
 *
 * Polite by default: at most `pagesPerSecond` requests a second, a deadline per request, retries with
 * exponential back-off on 429, 5xx, timeouts and network errors (a `Retry-After` is honoured), and the
 * redirects and caching headers of the server respected (`Cache-Control: immutable` or a `max-age` of a day or
 * more marks a node complete).
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Writer } from 'n3';
import type * as RDF from '@rdfjs/types';
import { PAGE_ACCEPT, PageSyntaxError, parsePage, readStreamPage } from './page.js';
import { appendMembers, compactJournal, repairJournal, type JournalMember } from './journal.js';
import { writerText } from '../../rdf/write.js';

export interface FollowOptions {
  /** Requests per second at most (the operator's limit: `harvest --ldes … --pages-per-second N`). */
  pagesPerSecond: number;
  /** Deadline of one request, ms. */
  timeoutMs: number;
  /** Tries of one request before the run fails (the first included). */
  attempts: number;
  /** The first back-off, ms; doubled at each retry (a Retry-After that asks for longer wins). */
  backoffMs: number;
  /** Called with each page read and with each retry, for the command's progress lines. */
  onEvent?: (event: FollowEvent) => void;
  /** The fetch to use (the global one; tests may count requests through it). */
  fetch?: typeof fetch;
}

export const DEFAULT_FOLLOW_OPTIONS: FollowOptions = { pagesPerSecond: 5, timeoutMs: 30_000, attempts: 5, backoffMs: 1000 };

export type FollowEvent =
  | { kind: 'page'; url: string; members: number; complete: boolean }
  | { kind: 'retry'; url: string; attempt: number; waitMs: number; reason: string };

interface FollowState {
  /** The stream's URL, as given. */
  url: string;
  complete: string[];
  mutable: string[];
  pending: string[];
}

/** A run that stopped: the page and what went wrong; everything before it is kept. */
export class FollowError extends Error {
  constructor(
    readonly url: string,
    message: string,
  ) {
    super(`${url}: ${message}`);
  }
}

/** Members that cannot be versions of a record: reported by IRI and page; the page is not taken. */
export class BadMembersError extends FollowError {
  constructor(
    url: string,
    readonly problems: { id: string; problem: string }[],
  ) {
    super(url, `${problems.length} bad member${problems.length === 1 ? '' : 's'}: ${problems.map((p) => `${p.id} (${p.problem})`).join('; ')}`);
  }
}

export interface FollowReport {
  pages: number;
  members: number;
  /** Nodes known complete after the run (never read again). */
  complete: number;
}

const STATE = 'state.json';

/**
 * Reads the stream at `url` into `dir`: every node not known complete, from the stream and the nodes left to
 * read or to read again. Returns what it read; throws a FollowError when it stops early.
 */
export async function followStream(url: string, dir: string, options: FollowOptions = DEFAULT_FOLLOW_OPTIONS): Promise<FollowReport> {
  await mkdir(dir, { recursive: true });
  await repairJournal(dir);
  const previous = await readState(dir);
  if (previous !== undefined && previous.url !== url) throw new Error(`${dir} follows ${previous.url}, not ${url}`);
  const complete = new Set(previous?.complete ?? []);
  const mutable = new Set<string>();
  // This run: the stream itself, what was left to read, and what may have changed since.
  const queue = [...new Set([url, ...(previous?.pending ?? []), ...(previous?.mutable ?? [])])].filter((u) => !complete.has(u));
  const seen = new Set(queue);
  // The nodes of the last run that may change are in the queue until read again: pending covers them.
  const save = (): Promise<void> => writeState(dir, { url, complete: [...complete], mutable: [...mutable], pending: queue });
  const paced = pacer(options.pagesPerSecond);
  const report: FollowReport = { pages: 0, members: 0, complete: 0 };
  /** The nodes read in this run, by the URL asked and the URL answered (a redirect names another). */
  const read = new Set<string>();
  while (queue.length > 0) {
    const requested = queue[0] as string;
    if (read.has(requested)) {
      queue.shift();
      continue;
    }
    await paced();
    const answer = await fetchPage(requested, options);
    let page;
    try {
      page = readStreamPage(await parsePage(answer.body, answer.mediaType, answer.url), answer.url);
    } catch (err) {
      if (err instanceof PageSyntaxError) throw new FollowError(answer.url, `a broken page: ${err.message}`);
      throw err;
    }
    const members: JournalMember[] = [];
    const problems: { id: string; problem: string }[] = [];
    for (const member of page.members) {
      const about = member.quads.filter((q) => q.subject.value === member.id);
      const versionOf = about.find((q) => q.predicate.value === page.versionOfPath)?.object;
      const time = about.find((q) => q.predicate.value === page.timestampPath)?.object;
      if (versionOf?.termType !== 'NamedNode') problems.push({ id: member.id, problem: `no IRI at its ldes:versionOfPath <${page.versionOfPath}>` });
      else if (time?.termType !== 'Literal' || Number.isNaN(Date.parse(time.value))) problems.push({ id: member.id, problem: `no time at its ldes:timestampPath <${page.timestampPath}>` });
      else members.push({ id: member.id, page: answer.url, versionOf: versionOf.value, time: new Date(time.value).toISOString(), nquads: await writeNQuads(member.quads) });
    }
    if (problems.length > 0) throw new BadMembersError(answer.url, problems);
    await appendMembers(dir, members);
    queue.shift();
    for (const node of [answer.url, requested]) {
      read.add(node);
      seen.add(node);
      if (answer.complete) complete.add(node);
      else mutable.add(node);
    }
    for (const link of page.links) {
      if (complete.has(link) || seen.has(link)) continue;
      seen.add(link);
      queue.push(link);
    }
    await save();
    report.pages++;
    report.members += members.length;
    options.onEvent?.({ kind: 'page', url: answer.url, members: members.length, complete: answer.complete });
  }
  await writeState(dir, { url, complete: [...complete], mutable: [...mutable], pending: [] });
  await compactJournal(dir);
  report.complete = complete.size;
  return report;
}

interface PageAnswer {
  /** The URL after redirects: the node's own IRI. */
  url: string;
  mediaType: string;
  body: string;
  complete: boolean;
}

/** One page, with retries: 429, 5xx, timeouts and network errors are tried again after a back-off. */
async function fetchPage(url: string, options: FollowOptions): Promise<PageAnswer> {
  const fetchImpl = options.fetch ?? fetch;
  for (let attempt = 1; ; attempt++) {
    let reason: string;
    let retryAfterMs: number | undefined;
    try {
      const res = await fetchImpl(url, { headers: { accept: PAGE_ACCEPT }, redirect: 'follow', signal: AbortSignal.timeout(options.timeoutMs) });
      if (res.ok) {
        return { url: res.url || url, mediaType: res.headers.get('content-type') ?? '', body: await res.text(), complete: isComplete(res.headers.get('cache-control')) };
      }
      if (res.status !== 429 && res.status < 500) throw new FollowError(url, `answered ${res.status} ${res.statusText}`);
      await res.body?.cancel();
      reason = `answered ${res.status}`;
      retryAfterMs = retryAfter(res.headers.get('retry-after'));
    } catch (err) {
      if (err instanceof FollowError) throw err;
      reason = (err as Error).name === 'TimeoutError' ? `no answer within ${options.timeoutMs} ms` : `failed: ${(err as Error).message}`;
    }
    if (attempt >= options.attempts) throw new FollowError(url, `${reason}, ${attempt} times; run the harvest again to resume from here`);
    const waitMs = Math.max(options.backoffMs * 2 ** (attempt - 1), retryAfterMs ?? 0);
    options.onEvent?.({ kind: 'retry', url, attempt, waitMs, reason });
    await sleep(waitMs);
  }
}

/** A node that will not change: `immutable`, or fresh for a day or more. */
function isComplete(cacheControl: string | null): boolean {
  if (cacheControl === null) return false;
  const directives = cacheControl.toLowerCase().split(',').map((d) => d.trim());
  if (directives.includes('no-cache') || directives.includes('no-store')) return false;
  if (directives.includes('immutable')) return true;
  const maxAge = directives.find((d) => d.startsWith('max-age='));
  return maxAge !== undefined && Number(maxAge.slice(8)) >= 86_400;
}

/** A Retry-After header in ms (seconds or an HTTP date); undefined when absent or unreadable. */
function retryAfter(header: string | null): number | undefined {
  if (header === null) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Resolves when the next request may go: at most `perSecond` a second. */
function pacer(perSecond: number): () => Promise<void> {
  const gap = 1000 / perSecond;
  let next = 0;
  return async () => {
    const now = performance.now();
    if (next > now) await sleep(next - now);
    next = Math.max(now, next) + gap;
  };
}

async function writeNQuads(quads: readonly RDF.Quad[]): Promise<string> {
  const writer = new Writer({ format: 'N-Quads' });
  for (const q of quads) writer.addQuad(q.subject as never, q.predicate as never, q.object as never, q.graph as never);
  return writerText(writer);
}

async function readState(dir: string): Promise<FollowState | undefined> {
  const text = await readFile(path.join(dir, STATE), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : (JSON.parse(text) as FollowState);
}

async function writeState(dir: string, state: FollowState): Promise<void> {
  const tmp = path.join(dir, `${STATE}.tmp`);
  await writeFile(tmp, JSON.stringify(state));
  await rename(tmp, path.join(dir, STATE));
}
