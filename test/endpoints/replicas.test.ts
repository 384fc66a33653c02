/**
 * Stateless replicas (issue 13): two real server processes (what `npm start` runs, without npm's own process:
 * test/helpers/commands.ts) on one DATA_DIR, with their rate-limit counters in one
 * throw-away Redis (Debian's redis-server on a free port). The first replica makes a small demo generation
 * (DEMO_OBJECTS) and the second one starts on it. Checked: both answer a record, a collection page and a SPARQL
 * query byte for byte alike with the same ETags; ten requests spread over both replicas use up one client's
 * minute, on /v2 and on /sparql; a generation loaded by the load command while both are being asked (every
 * answer whole and of one generation) is served by both, on either store,
 * without a restart; and with Redis stopped every request is still answered, each replica counting on its own
 * (docs/operations.md, "Rate limits across replicas"). Skipped, saying why, without /usr/bin/redis-server.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { commandLine, serviceLine } from '../helpers/commands.js';
import { freePort, REDIS_BIN, redisCommand, startRedis, type RedisServer } from '../helpers/redis.js';
import { startServerProcess } from '../helpers/server-process.js';
import { waitFor } from '../helpers/service-process.js';
import { restartIfCrashed, startVirtuoso, VIRTUOSO_BIN, type VirtuosoServer } from '../helpers/virtuoso.js';

const FILE = 'test/endpoints/replicas.test.ts';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LIMIT = 10;
const LIMITED_BODY = '{"status":429,"error":"Too many requests. Please slow down."}';
// IRIs only: blank node labels differ from one store load to the next, so from one replica to the other.
const SPARQL_QUERY = 'SELECT ?s ?label WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?label FILTER(isIRI(?s)) } ORDER BY ?s ?label LIMIT 5';

function describeWithRedis(): jest.Describe {
  if (REDIS_BIN !== undefined) return describe;
  // Visible in the test output, so a skipped replica test is never mistaken for a passing one.
  console.warn(`${FILE} skipped: no Redis at /usr/bin/redis-server (apt-get install redis-server)`);
  return describe.skip;
}

interface Replica {
  name: string;
  origin: string;
  stop(): Promise<void>;
}

interface Answer {
  status: number;
  body: string;
  headers: Headers;
}

/** One GET from the client `ip` (the replicas trust X-Forwarded-For from loopback, as behind a proxy). */
async function get(replica: Replica, path: string, ip: string, accept = 'application/ld+json'): Promise<Answer> {
  const response = await fetch(`${replica.origin}${path}`, { headers: { 'x-forwarded-for': ip, accept }, signal: AbortSignal.timeout(10_000) });
  return { status: response.status, body: await response.text(), headers: response.headers };
}

const sparqlPath = (query: string): string => `/sparql?query=${encodeURIComponent(query)}`;

async function readyGeneration(replica: Replica): Promise<string | undefined> {
  const response = await fetch(`${replica.origin}/readyz`, { signal: AbortSignal.timeout(2000) });
  if (!response.ok) return undefined;
  return ((await response.json()) as { generation?: string }).generation;
}


/** Runs a data command (test/helpers/commands.ts) with `env`; resolves with its exit code and output. */
function runCli(name: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const command = commandLine(name, args);
    const child = spawn(command.file, command.args, {
      cwd: ROOT,
      env: { ...process.env, NODE_OPTIONS: undefined, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.once('error', reject);
    // A command that hangs is ended, so the test says where it stood instead of timing out.
    const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** A metric's value in a replica's /metrics text (the first series whose line starts with `series`). */
async function metric(replica: Replica, series: string): Promise<number | undefined> {
  const text = await (await fetch(`${replica.origin}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** The stores the replicas run on: each replica's embedded workers, or one Virtuoso (STORE_URL) when installed. */
const STORES = VIRTUOSO_BIN === undefined ? (['embedded'] as const) : (['embedded', 'remote'] as const);
if (VIRTUOSO_BIN === undefined) console.warn(`${FILE}: the remote-store variant skipped: no Virtuoso at /usr/bin/virtuoso-t`);

describeWithRedis().each(STORES)('two replicas on one data folder and one Redis, %s store', (storeKind) => {
  let redis: RedisServer | undefined;
  let virtuoso: VirtuosoServer | undefined;
  let dataDir: string;
  let env: Record<string, string | undefined>;
  const replicas: Replica[] = [];
  let recordPath: string;
  let probes = 0;

  const startReplica = async (name: string, port: number): Promise<Replica> => {
    const dir = await mkdtemp(join(tmpdir(), `replica-${name}-`));
    const origin = `http://127.0.0.1:${port}`;
    const service = serviceLine();
    const stop = await startServerProcess({
      name: `replica ${name}`,
      bin: service.file,
      args: service.args,
      dir,
      env: { ...env, PORT: String(port) },
      // Ready once both stores are: /readyz says the REST one is, a query that the SPARQL one is (each probe
      // from an address of its own, so that probing never meets the rate limit).
      ready: async () =>
        (await fetch(`${origin}/readyz`, { signal: AbortSignal.timeout(2000) })).ok &&
        (await get({ name, origin, stop: async () => undefined }, sparqlPath('ASK {}'), `192.0.2.${++probes % 250}`, 'application/sparql-results+json')).status === 200,
      readyWhat: `answer ${origin}/readyz and a SPARQL query`,
      timeoutMs: 50_000,
      pollMs: 200,
    });
    const replica = { name, origin, stop };
    replicas.push(replica);
    return replica;
  };

  beforeAll(async () => {
    redis = await startRedis();
    // One SPARQL server for both replicas: the first one writes the demo generation to it as it starts.
    virtuoso = storeKind === 'remote' ? await startVirtuoso() : undefined;
    dataDir = await mkdtemp(join(tmpdir(), 'replicas-data-'));
    const [portA, portB] = [await freePort(), await freePort()];
    env = {
      // The replicas sit behind one public address; the first one's port stands in for it.
      BASE_URL: `http://127.0.0.1:${portA}`,
      DATA_DIR: dataDir,
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: 'replicas-test:',
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
      TRUST_PROXY: 'loopback',
      DEMO_OBJECTS: '10',
      LOG_LEVEL: 'warn',
      NODE_OPTIONS: undefined,
      // With STORE_URL an empty data folder gets the demo only when asked for (DEMO, issue 28).
      ...(virtuoso ? { STORE_URL: virtuoso.sparqlUrl, STORE_USER: virtuoso.user, STORE_PASSWORD: virtuoso.password, DEMO: '1' } : {}),
    };
    // The first replica makes the demo generation; the second starts on it (two first starts on an empty
    // folder would both make one).
    await startReplica('A', portA).catch(async (err: unknown) => {
      // Once (CI, 2026-11-29), Debian's virtuoso-t ended by itself while replica A wrote the 10-object demo to
      // it; a local run could not make it happen again (3 runs beside 2 busy loops). The replicas are this file's
      // subject, not that crash: it is reported with the server's last output (by the helper), the server is
      // started again on its database, and A starts once more, which also tests that a publication cut by a
      // crash starts over. Any other failure, or a second crash, fails the test.
      if (virtuoso === undefined || !(await restartIfCrashed(virtuoso, `while replica A published (${FILE})`))) throw err;
      await startReplica('A', portA);
    });
    await startReplica('B', portB === portA ? await freePort() : portB);
    const page = JSON.parse((await get(replicas[0]!, '/v2/id/objects', '198.51.100.1')).body) as { 'hydra:member': { '@id': string }[] };
    recordPath = new URL(page['hydra:member'][0]!['@id']).pathname;
  }, 100_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await redis?.stop();
    await virtuoso?.stop();
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  });

  it('serve identical answers and ETags for a record, a collection page and a SPARQL query', async () => {
    const [a, b] = replicas as [Replica, Replica];
    const asked: [string, string][] = [
      [recordPath, 'application/ld+json'],
      ['/v2/id/objects?page=2', 'application/ld+json'],
      [sparqlPath(SPARQL_QUERY), 'application/sparql-results+json'],
    ];
    for (const [path, accept] of asked) {
      const [fromA, fromB] = [await get(a, path, '198.51.100.1', accept), await get(b, path, '198.51.100.1', accept)];
      expect([fromA.status, fromB.status]).toEqual([200, 200]);
      expect(fromA.headers.get('etag')).toBeTruthy();
      expect(fromB.headers.get('etag')).toBe(fromA.headers.get('etag'));
      expect(fromB.headers.get('content-type')).toBe(fromA.headers.get('content-type'));
      expect(fromB.body).toBe(fromA.body);
    }
    expect(await readyGeneration(b)).toBe(await readyGeneration(a));
  });

  it('count one client across both replicas: ten requests use up the minute, the eleventh gets 429 on either', async () => {
    const [a, b] = replicas as [Replica, Replica];
    for (const [scope, path, accept] of [
      ['v2', '/v2/dcat', 'application/ld+json'],
      ['sparql', sparqlPath('ASK { ?s ?p ?o }'), 'application/sparql-results+json'],
    ] as const) {
      const ip = scope === 'v2' ? '198.51.100.2' : '198.51.100.3';
      const remaining: number[] = [];
      for (let i = 0; i < LIMIT; i++) {
        const answer = await get(i % 2 === 0 ? a : b, path, ip, accept);
        expect(answer.status).toBe(200);
        remaining.push(Number(/; r=(\d+);/.exec(answer.headers.get('ratelimit') ?? '')?.[1]));
      }
      // One count: each replica sees what the other counted (else show how the replicas counted).
      if (remaining.join() !== '9,8,7,6,5,4,3,2,1,0') {
        const counting = await Promise.all([a, b].map(async (r) => `${r.name}: up ${await metric(r, 'rate_limit_redis_up')}, local ${await metric(r, `rate_limit_local_counts_total{scope="${scope}"}`)}`));
        expect({ remaining, counting }).toEqual({ remaining: [9, 8, 7, 6, 5, 4, 3, 2, 1, 0] });
      }
      for (const replica of [a, b]) {
        const limited = await get(replica, path, ip, accept);
        expect(limited.status).toBe(429);
        expect(limited.body).toBe(LIMITED_BODY);
        expect(limited.headers.get('content-type')).toMatch(/^application\/json/);
        expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      }
    }
    // Another client is still served, and the counters sit under the configured prefix.
    expect((await get(b, '/v2/dcat', '198.51.100.9')).status).toBe(200);
    const keys = (await redisCommand(redis!.port, 'KEYS', '*')) as string[];
    expect(keys).toEqual(expect.arrayContaining(['replicas-test:rate-limit:v2:198.51.100.2', 'replicas-test:rate-limit:sparql:198.51.100.3']));
    expect(keys.every((key) => key.startsWith('replicas-test:rate-limit:'))).toBe(true);
  });

  it('switch to a generation loaded while they run, without a restart', async () => {
    const [a, b] = replicas as [Replica, Replica];
    const ip = '198.51.100.4';
    const before = await readyGeneration(a);
    const record = JSON.parse((await get(a, recordPath, ip)).body) as { 'rdfs:label'?: unknown };
    const label = typeof record['rdfs:label'] === 'string' ? record['rdfs:label'] : JSON.stringify(record['rdfs:label']);
    expect(typeof record['rdfs:label']).toBe('string');

    // The served generation's quads, one label changed, loaded by the load command as the new current generation.
    const generationDir = join(dataDir, 'generations', (await readFile(join(dataDir, 'current'), 'utf8')).trim());
    const quads = [await readFile(join(generationDir, 'public.nq.gz')), await readFile(join(generationDir, 'nonpublic.nq.gz'))]
      .map((gz) => gunzipSync(gz).toString('utf8'))
      .join('')
      .replaceAll(`"${label}"`, `"${label} (new generation)"`);
    const file = join(dataDir, 'changed.nq.gz');
    await writeFile(file, gzipSync(quads, { level: 1 }));
    // The data command gets the replicas' store settings (with STORE_URL it writes the generation to the server first).
    const storeEnv = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[0].startsWith('STORE_') && e[1] !== undefined));
    // Both replicas keep being asked while the generation is made and switched: every answer is whole, and
    // wholly one generation's (the old label or the new one).
    let loading = true;
    const labels = new Set<string>();
    const statuses = new Set<number>();
    let sent = 0;
    const ask = async (replica: Replica): Promise<void> => {
      while (loading) {
        // A client address of its own per request: the rate limit is not what this checks.
        const n = sent++;
        const answer = await get(replica, recordPath, `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`);
        statuses.add(answer.status);
        if (answer.status === 200) labels.add(String((JSON.parse(answer.body) as { 'rdfs:label'?: unknown })['rdfs:label']));
      }
    };
    const askers = [a, b, a, b].map(ask);
    const loaded = await runCli('load', [file], { DATA_DIR: dataDir, BASE_URL: env.BASE_URL!, ...storeEnv }).finally(async () => {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      loading = false;
    });
    await Promise.all(askers);
    expect(sent).toBeGreaterThan(20);
    expect([...statuses]).toEqual([200]);
    for (const seen of labels) expect([label, `${label} (new generation)`]).toContain(seen);
    expect({ code: loaded.code, output: loaded.code === 0 ? '' : loaded.output }).toEqual({ code: 0, output: '' });
    const after = (await readFile(join(dataDir, 'current'), 'utf8')).trim();
    expect(after).not.toBe(before);

    for (const replica of [a, b]) {
      await waitFor(`replica ${replica.name} serving generation ${after}`, async () => ((await readyGeneration(replica)) === after ? true : undefined), 30_000);
    }
    const [fromA, fromB] = [await get(a, recordPath, ip), await get(b, recordPath, ip)];
    expect(fromA.status).toBe(200);
    expect((JSON.parse(fromA.body) as { 'rdfs:label': string })['rdfs:label']).toBe(`${label} (new generation)`);
    expect(fromB.body).toBe(fromA.body);
    expect(fromB.headers.get('etag')).toBe(fromA.headers.get('etag'));
  }, 60_000);

  it('keep answering with Redis stopped, each replica then counting on its own', async () => {
    const [a, b] = replicas as [Replica, Replica];
    // After the swap above, clients' SPARQL queries wait until the embedded store's second worker has loaded
    // the new generation (REST first, docs/architecture.md): from then on both replicas answer them.
    for (const replica of [a, b]) {
      await waitFor(
        `replica ${replica.name} answering /sparql`,
        async () => ((await get(replica, sparqlPath('ASK {}'), `192.0.2.${++probes % 250}`, 'application/sparql-results+json')).status === 200 ? true : undefined),
        60_000,
      );
    }
    await redis!.stop();
    redis = undefined;
    const ip = '198.51.100.5';
    for (const replica of [a, b]) {
      for (let i = 0; i < LIMIT; i++) {
        const started = performance.now();
        const answer = await get(replica, '/v2/dcat', ip);
        expect(answer.status).toBe(200);
        // A dead Redis costs no request more than the counter update's time limit.
        expect(performance.now() - started).toBeLessThan(1000);
      }
      const limited = await get(replica, '/v2/dcat', ip);
      expect(limited.status).toBe(429);
      expect(limited.body).toBe(LIMITED_BODY);
      expect(await metric(replica, 'rate_limit_redis_up')).toBe(0);
      expect(await metric(replica, 'rate_limit_local_counts_total{scope="v2"}')).toBeGreaterThanOrEqual(LIMIT + 1);
    }
    // Records and SPARQL are served as before.
    expect((await get(a, recordPath, '198.51.100.6')).status).toBe(200);
    expect((await get(b, sparqlPath(SPARQL_QUERY), '198.51.100.6', 'application/sparql-results+json')).status).toBe(200);
  }, 120_000);
});
