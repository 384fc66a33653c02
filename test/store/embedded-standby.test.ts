/**
 * The embedded store as server.ts starts it (src/store/shared-store.ts, issue 26), on the real app over real store
 * workers on the demo generation: two workers that each hold the whole generation and share the work, each the
 * other's standby.
 *
 * - A runaway SPARQL query ends the worker it runs on at its deadline (504); /sparql answers 503 with Retry-After
 *   while the lost worker reloads (a client's query never runs on the last live worker, which serves the REST
 *   API alone meanwhile), then 200, twice in a row, so each worker is ended in turn; a loop of REST requests
 *   running meanwhile has no failed request.
 * - While a runaway runs on one worker, REST requests are answered by the other, well within the runaway's time.
 * - Public-only holds by the dataset a query reads: the SPARQL store cannot reach a private record that the REST
 *   store reads when it asks for the non-public part.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import request from 'supertest';
import { LONG_QUERY_NICE } from '../../src/store/thread-priority.js';
import type { StoreManager } from '../../src/store/store-manager.js';
import { parseSelectJson } from '../../src/records/sparql-json.js';
import { startDemoApp, type DemoApp } from '../helpers/demo.js';

const RUNAWAY = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }';
/** A client's query that runs for a few hundred ms on the demo (270 ms alone on the 2-core machine), then answers. */
const LONG = 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o FILTER(REGEX(STR(?o), "z.*q.*z") || REGEX(STR(?s), "z.*q.*z") || REGEX(STR(?p), "z.*q.*z")) }';
/**
 * The runaways' deadline: short, so that each costs the run little, and long enough that the REST requests made
 * meanwhile (each well under half of it) are answered within half of it on a machine other work keeps busy.
 */
const DEADLINE = 4000;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The threads of this process at the lowered priority, by id, read from Linux's /proc (nice is per thread there). */
const loweredThreads = (): Set<string> =>
  new Set(
    readdirSync('/proc/self/task').filter((tid) => {
      try {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        // After "pid (comm) ": state is field 3, nice field 19.
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) === LONG_QUERY_NICE;
      } catch {
        return false; // the thread ended meanwhile
      }
    }),
  );
/** Threads lowered now that were not in `before` (V8 runs some background threads of its own at nice 10). */
const newlyLowered = (before: Set<string>): string[] => [...loweredThreads()].filter((tid) => !before.has(tid));
/** CAP_SYS_NICE (capability 23) among this process's effective capabilities, from /proc/self/status. */
const hasCapSysNice = (): boolean => {
  const effective = /CapEff:\s*([0-9a-f]+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  return effective !== undefined && (BigInt(`0x${effective}`) & (1n << 23n)) !== 0n;
};

describe('the embedded store: two workers that share the work, each the other’s standby', () => {
  let demo: DemoApp;
  let app: DemoApp['app'];
  let probes = 0;

  beforeAll(async () => {
    demo = await startDemoApp(
      // Every probe runs its query on the store: no answer from the result cache.
      { SPARQL_TIMEOUT_MS: String(DEADLINE), SPARQL_RESULT_CACHE_MB: '0', RECORD_CACHE_SIZE: '0' },
      // As the service runs: a client's long query lowers its thread's priority (tested below).
      { sparql: true, shared: true, yieldClientQueries: true },
    );
    app = demo.app;
  }, 600_000);
  afterAll(async () => {
    await demo?.close();
  });

  const standbyReady = (): boolean => (demo.store as unknown as Pick<StoreManager, 'standbyReady'>).standbyReady();
  /** Whether `check` holds within `ms`, polled every 20 ms. */
  const eventually = async (check: () => boolean, ms: number): Promise<boolean> => {
    const started = performance.now();
    while (!check() && performance.now() - started < ms) await sleep(20);
    return check();
  };
  const untilBothLoaded = async (): Promise<void> => {
    if (!(await eventually(standbyReady, 50_000))) throw new Error('the second worker did not load within 50 s');
  };
  /**
   * A runaway query, then a query never asked before every 25 ms until one answers 200 (within 60 s: the reload
   * takes seconds, more on a busy machine): the statuses, whether every 503 said when to retry, whether the
   * second worker had loaded when the 200 came, and the time.
   */
  const runawayThenAnswer = async (): Promise<{ runaway: number; probes: number[]; retryAfter: boolean; bothLoaded: boolean; ms: number }> => {
    const runaway = await request(app).get('/sparql').query({ query: RUNAWAY });
    const started = performance.now();
    const statuses: number[] = [];
    let retryAfter = true;
    let bothLoaded = false;
    while (performance.now() - started < 60_000) {
      const res = await request(app).get('/sparql').query({ query: `ASK { ?s ?p "probe ${++probes}" }` });
      statuses.push(res.status);
      if (res.status === 503 && !(Number(res.headers['retry-after']) >= 1)) retryAfter = false;
      if (res.status === 200) {
        bothLoaded = standbyReady();
        break;
      }
      await sleep(25);
    }
    return { runaway: runaway.status, probes: statuses, retryAfter, bothLoaded, ms: performance.now() - started };
  };

  it('holds the generation in two workers once both have loaded', async () => {
    await untilBothLoaded();
    const workers = demo.store.workerMemory?.() ?? [];
    expect(workers.map((w) => w.worker).sort()).toEqual(['serving', 'standby']);
    // The SPARQL store's workers are the same two: reported once.
    expect(demo.sparqlStore?.workerMemory?.()).toEqual([]);
  });

  it('serves a page of full records shaped in both workers byte for byte as the single-record endpoint serves each', async () => {
    await untilBothLoaded();
    expect(demo.store.shapesRecords).toBe(true);
    const answered = (): number[] => (demo.store.workerMemory?.() ?? []).map((w) => w.answered);
    const before = answered();
    const page = await request(app).get('/v2/id/objects').query({ page: 3, itemsPerPage: 60, fullRecord: 'true', colors: 'true' });
    expect(page.status).toBe(200);
    // Both workers answered the page's queries (three of 25 records at most each, besides the index's).
    expect(answered().every((count, i) => count > (before[i] ?? 0))).toBe(true);
    const members = page.body['hydra:member'] as { '@id': string }[];
    expect(members).toHaveLength(60);
    for (const member of members) {
      const single = await request(app).get(new URL(member['@id']).pathname).query({ colors: 'true' });
      expect(single.status).toBe(200);
      expect(JSON.stringify(member)).toBe(JSON.stringify(single.body));
    }
  }, 60_000);

  (existsSync('/proc/thread-self') ? it : it.skip)('runs a client’s runaway query on a thread of lower priority, which ends with it', async () => {
    await untilBothLoaded();
    const before = loweredThreads();
    const runaway = request(app).get('/sparql').query({ query: RUNAWAY }).then((res) => res.status);
    // Lowered once it has run 100 ms in its worker: polled, since on a busy machine the query may take a while to
    // get there (parsed in the parse worker first). The runaway is awaited whatever happens, so that a failure here
    // leaves no runaway behind to end a worker under the next test.
    let lowered: string[] = [];
    try {
      await eventually(() => (lowered = newlyLowered(before)).length > 0, DEADLINE);
    } finally {
      await runaway;
    }
    expect(lowered).toHaveLength(1);
    expect(await runaway).toBe(504);
    // The thread ends with the runaway (the 504 may be sent a little before it has exited).
    expect(await eventually(() => !loweredThreads().has(lowered[0]!), 10_000)).toBe(true);
  }, 60_000);

  it('answers REST requests from the other worker while a runaway query holds one', async () => {
    await untilBothLoaded();
    const runaway = request(app).get('/sparql').query({ query: RUNAWAY }).then((res) => res.status);
    await sleep(200);
    const times: number[] = [];
    for (const page of [3, 4, 5]) {
      const started = performance.now();
      const res = await request(app).get('/v2/id/objects').query({ page: String(page), fullRecord: 'true' });
      times.push(performance.now() - started);
      expect(res.status).toBe(200);
    }
    expect(await runaway).toBe(504);
    // Queued behind the runaway, each would have waited for its deadline at least.
    expect(Math.max(...times)).toBeLessThan(DEADLINE / 2);
  });

  it("sheds /sparql with 503 while the worker lost to a deadline reloads, never running a client's query on the last one, with no failed REST request meanwhile", async () => {
    const rest: number[] = [];
    let looping = true;
    const loop = (async () => {
      for (let i = 0; looping; i++) {
        const res = await request(app).get('/v2/id/objects').query({ page: String((i % 9) + 1) });
        rest.push(res.status);
      }
    })();
    try {
      for (let round = 0; round < 2; round++) {
        // The worker lost to the last runaway loads again behind the one that took over.
        await untilBothLoaded();
        const { runaway, probes: statuses, retryAfter, bothLoaded } = await runawayThenAnswer();
        expect(runaway).toBe(504);
        // 503 (with Retry-After) while one worker serves the REST API alone, then 200 once the other has loaded.
        const shed = statuses.slice(0, -1);
        expect({ last: statuses[statuses.length - 1], shed: [...new Set(shed)], retryAfter, bothLoaded }).toEqual({ last: 200, shed: [503], retryAfter: true, bothLoaded: true });
      }
    } finally {
      looping = false;
      await loop;
    }
    expect(rest.length).toBeGreaterThan(10);
    expect(rest.filter((status) => status !== 200)).toEqual([]);
  }, 120_000);

  it('reads a private record only through the REST store asking for the non-public part, never through /sparql', async () => {
    const statuses = parseSelectJson(
      await demo.store.query(demo.ctx.queries.bind('records/status', { admin: demo.ctx.iris.adminGraph }), { format: 'application/sparql-results+json', nonPublic: true }),
    );
    const hidden = statuses.find((row) => row.private === 'true' && (row.state ?? 'current') === 'current')?.record;
    expect(hidden).toBeDefined();
    const ask = `ASK { GRAPH <${hidden}> { ?s ?p ?o } }`;
    expect(JSON.parse(await demo.store.query(ask, { nonPublic: true })).boolean).toBe(true);
    expect(JSON.parse(await demo.store.query(ask)).boolean).toBe(false);
    // The graph named by VALUES, not a FILTER over every graph: a query this cheap answers within the deadline
    // however busy the machine.
    const res = await request(app).get('/sparql').query({ query: `ASK { VALUES ?g { <${hidden}> } GRAPH ?g { ?s ?p ?o } }` });
    expect(res.status).toBe(200);
    expect(res.body.boolean).toBe(false);
    await expect(demo.sparqlStore!.query(ask, { nonPublic: true })).rejects.toThrow(/public part only/);
    // The record query's own guard: on the part where the admin graph names it, the private record yields nothing.
    const record = demo.ctx.queries.bind('records/record', { record: hidden!, admin: demo.ctx.iris.adminGraph });
    expect((await demo.store.query(`CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <${hidden}> { ?s ?p ?o } }`, { nonPublic: true })).trim()).not.toBe('');
    expect((await demo.store.query(record, { nonPublic: true })).trim()).toBe('');
  });
});

/** The long query's half of the priority test: an app of its own, whose deadline (a minute) LONG meets however busy the machine. */
describe('a client’s long query on the embedded store', () => {
  let demo: DemoApp;
  beforeAll(async () => {
    // A deadline of five minutes: at its lower priority, on a machine that other work keeps busy, LONG (270 ms alone)
    // waits for every other thread; it must end by itself, however late, for its thread's priority to come back.
    demo = await startDemoApp({ SPARQL_RESULT_CACHE_MB: '0', SPARQL_TIMEOUT_MS: '300000' }, { sparql: true, shared: true, yieldClientQueries: true });
  }, 600_000);
  afterAll(async () => {
    await demo?.close();
  });

  (existsSync('/proc/thread-self') ? it : it.skip)('runs on a thread of lower priority, which gets the usual one back when the query ends', async () => {
    const before = loweredThreads();
    const seen = new Set<string>();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        for (const tid of newlyLowered(before)) seen.add(tid);
        await sleep(10);
      }
    })();
    const started = performance.now();
    const long = await request(demo.app).get('/sparql').query({ query: LONG });
    const ms = performance.now() - started;
    sampling = false;
    await sampler;
    expect(long.status).toBe(200);
    expect(ms).toBeGreaterThan(150);
    expect(seen.size).toBe(1);
    // Raising a thread's priority again needs CAP_SYS_NICE; without it the thread keeps the lower one.
    expect(newlyLowered(before)).toEqual(hasCapSysNice() ? [] : [...seen]);
  }, 400_000);
});
