/**
 * The HTTP client of the object benchmark, run as a child process so that it never shares an event loop
 * with the server it measures. One job per process, given as JSON in argv[2] (or on standard input when argv[2] is
 * `-`); the result is one JSON line
 * on stdout.
 *   - 'sequential': one keep-alive connection, one request at a time, each timed with hrtime (sub-ms).
 *   - 'autocannon': `connections` concurrent connections for `seconds`, each request a random path.
 *   - 'steady': open loop, one request every 1/`rate` s for `seconds` whether or not earlier ones have
 *     answered (autocannon's own rate limit sends each second's requests in one burst), each timed.
 */
import { createRequire } from 'node:module';
import http from 'node:http';
import { cpuMsSince } from './report.js';

export interface LoadJob {
  mode: 'sequential' | 'autocannon' | 'steady';
  /** http://127.0.0.1:PORT */
  origin: string;
  paths: string[];
  /** sequential: number of requests (cycling through `paths`). */
  requests?: number;
  /** autocannon */
  connections?: number;
  seconds?: number;
  /** autocannon: requests per second over all connections (unset: as fast as the server answers); steady: the send rate. */
  rate?: number;
  /** steady: also return every request as a sample (when it was sent, its status, its time), for a timeline. */
  timeline?: boolean;
  /** steady: a request unanswered after this many ms is abandoned and counted as status `timeout`. */
  timeoutMs?: number;
  /** sequential: request headers (an Accept, say). */
  headers?: Record<string, string>;
}

export interface SequentialResult {
  mode: 'sequential' | 'steady';
  requests: number;
  statuses: Record<string, number>;
  /** Per-request times in ms. */
  latencies: number[];
  /** steady with `timeline`: [ms from the job's start to the request's send, status, ms to its answer, path] per request. */
  samples?: [number, string, number, string][];
}

export interface AutocannonResult {
  mode: 'autocannon';
  requestsPerSecond: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** The client's own CPU time over the run (user + system), in ms: what the load generator took of the cores. */
  clientCpuMs: number;
}

interface AutocannonRequest {
  method: string;
  setupRequest?: (req: { path?: string }) => { path?: string };
}

interface AutocannonOutput {
  requests: { average: number; total: number };
  latency: { p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

type Autocannon = (
  options: { url: string; connections: number; duration: number; overallRate?: number; requests: AutocannonRequest[] },
  done: (err: Error | null, result: AutocannonOutput) => void,
) => unknown;

class RequestTimeout extends Error {}

function get(agent: http.Agent, origin: string, path: string, timeoutMs?: number, headers?: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${origin}${path}`, { agent, ...(headers === undefined ? {} : { headers }) }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (timeoutMs !== undefined) req.setTimeout(timeoutMs, () => req.destroy(new RequestTimeout()));
  });
}

async function sequential(job: LoadJob): Promise<SequentialResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const count = job.requests ?? job.paths.length;
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  for (let i = 0; i < count; i++) {
    const path = job.paths[i % job.paths.length] as string;
    const started = process.hrtime.bigint();
    const status = await get(agent, job.origin, path, undefined, job.headers);
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
  agent.destroy();
  return { mode: 'sequential', requests: count, statuses, latencies };
}

async function steady(job: LoadJob): Promise<SequentialResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const rate = job.rate ?? 50;
  const count = Math.round(rate * (job.seconds ?? 10));
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const samples: [number, string, number, string][] = [];
  const begin = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    // Sleep until this request's slot; a late wake-up sends at once, so the schedule never drifts.
    const wait = begin + (i * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const path = job.paths[Math.floor(Math.random() * job.paths.length)] as string;
    const sentAt = performance.now() - begin;
    const started = process.hrtime.bigint();
    const took = (): number => Number(process.hrtime.bigint() - started) / 1e6;
    inFlight.push(
      get(agent, job.origin, path, job.timeoutMs).then(
        (status) => {
          const ms = took();
          latencies.push(ms);
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (job.timeline) samples.push([sentAt, String(status), ms, path]);
        },
        (err: unknown) => {
          const status = err instanceof RequestTimeout ? 'timeout' : `error ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (job.timeline) samples.push([sentAt, status, took(), path]);
        },
      ),
    );
  }
  await Promise.all(inFlight);
  agent.destroy();
  return { mode: 'steady', requests: count, statuses, latencies, ...(job.timeline ? { samples } : {}) };
}

async function cannon(job: LoadJob): Promise<AutocannonResult> {
  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
  const { paths } = job;
  const cpu = process.cpuUsage();
  const result = await new Promise<AutocannonOutput>((resolve, reject) => {
    autocannon(
      {
        url: job.origin,
        connections: job.connections ?? 10,
        duration: job.seconds ?? 10,
        ...(job.rate === undefined ? {} : { overallRate: job.rate }),
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: paths[Math.floor(Math.random() * paths.length)] }) }],
      },
      (err, out) => (err ? reject(err) : resolve(out)),
    );
  });
  return {
    mode: 'autocannon',
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    clientCpuMs: cpuMsSince(cpu),
  };
}

/** The job: argv[2], or standard input when argv[2] is `-` (load-client.ts sends it there). */
async function readJob(): Promise<LoadJob> {
  if (process.argv[2] !== '-') return JSON.parse(process.argv[2] ?? '{}') as LoadJob;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as LoadJob;
}

const job = await readJob();
const result = job.mode === 'sequential' ? await sequential(job) : job.mode === 'steady' ? await steady(job) : await cannon(job);
process.stdout.write(`${JSON.stringify(result)}\n`);
