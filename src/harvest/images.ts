/**
 * Image validation (spec "Validated images"): each distinct image URI is checked once with a real HEAD
 * request to its IIIF image server. 2xx and 3xx keep the image; 403, 404 and every other outcome
 * (other status, 5xx, timeout, network error) drop it. Only hosts the deployment names are ever
 * contacted; images on any other host are dropped unchecked. With a logger, a check writes one summary line at
 * info and one line per image at debug (a demo harvest checks some 300 images).
 */
import type { Logger } from 'pino';

export interface ImageCheckOptions {
  /** `host` or `host:port` entries; a URL matches by host with or without its default port. */
  hosts: readonly string[];
  concurrency?: number;
  timeoutMs?: number;
  onProgress?: (done: number, total: number) => void;
  /** Where the summary (info) and the outcome of each image (debug) are written; nothing is logged without it. */
  logger?: Pick<Logger, 'info' | 'debug'>;
  /**
   * Verdicts of an earlier check (URL → kept), which stand: an incremental harvest asks only about URLs the
   * current generation's harvest did not (docs/incremental.md).
   */
  known?: ReadonlyMap<string, boolean>;
}

export interface ImageCheckResult {
  /** URLs that answered 2xx or 3xx. */
  valid: Set<string>;
  /** Distinct URLs a HEAD request was sent for. */
  checked: number;
  /** Distinct URLs dropped: failed checks plus URLs on hosts that are not checked. */
  dropped: number;
  /** Distinct URLs whose earlier verdict stood (`known`), without a request. */
  reused: number;
  /** The verdict on every URL on a checked host, asked now or earlier: what the next harvest may reuse. */
  verdicts: Map<string, boolean>;
}

const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** The `host` and `host:port` spellings of a URL, or [] when it does not parse. */
function hostKeys(url: string): string[] {
  try {
    const u = new URL(url);
    const port = u.port === '' ? DEFAULT_PORT[u.protocol] : u.port;
    return [u.host.toLowerCase(), `${u.hostname.toLowerCase()}:${port ?? ''}`];
  } catch {
    return [];
  }
}

/** True when `url` is on one of `hosts`. */
export function isOnHost(url: string, hosts: ReadonlySet<string>): boolean {
  return hostKeys(url).some((key) => hosts.has(key));
}

/** The outcome of one HEAD request: its status, or why there is none (`timeout`, the network error's name). */
type HeadOutcome = { ok: boolean; status?: number; error?: string };

/** HEAD one URL and say what came back; never throws. */
async function head(url: string, timeoutMs: number): Promise<HeadOutcome> {
  try {
    // redirect: 'manual' so a 3xx counts as present and a redirect never leads to an unchecked host.
    const response = await fetch(url, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return { ok: response.status >= 200 && response.status < 400, status: response.status };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? (err.name === 'TimeoutError' ? 'timeout' : err.name) : 'error' };
  }
}

/** HEAD one URL: true for 2xx/3xx, false for anything else including errors and timeouts. */
export async function headOk(url: string, timeoutMs: number): Promise<boolean> {
  return (await head(url, timeoutMs)).ok;
}

/** Checks every distinct URL of `urls` with bounded concurrency. */
export async function checkImages(urls: Iterable<string>, options: ImageCheckOptions): Promise<ImageCheckResult> {
  const started = Date.now();
  const hosts = new Set(options.hosts.map((h) => h.trim().toLowerCase()));
  const concurrency = Math.max(1, options.concurrency ?? 16);
  const timeoutMs = options.timeoutMs ?? 5000;
  const { logger } = options;
  const distinct = [...new Set(urls)];
  const onHosts = distinct.filter((url) => isOnHost(url, hosts));
  const valid = new Set<string>();
  const verdicts = new Map<string, boolean>();
  const toCheck: string[] = [];
  for (const url of onHosts) {
    const earlier = options.known?.get(url);
    if (earlier === undefined) toCheck.push(url);
    else {
      verdicts.set(url, earlier);
      if (earlier) valid.add(url);
    }
  }
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < toCheck.length) {
      const url = toCheck[next++] as string;
      const outcome = await head(url, timeoutMs);
      verdicts.set(url, outcome.ok);
      if (outcome.ok) valid.add(url);
      logger?.debug({ url, ...outcome }, 'image checked');
      done += 1;
      options.onProgress?.(done, toCheck.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, toCheck.length) }, worker));
  const result = { valid, checked: toCheck.length, dropped: distinct.length - valid.size, reused: onHosts.length - toCheck.length, verdicts };
  logger?.info(
    { images: distinct.length, checked: result.checked, reused: result.reused, kept: valid.size, dropped: result.dropped, offHost: distinct.length - onHosts.length, ms: Date.now() - started },
    'images checked',
  );
  return result;
}
