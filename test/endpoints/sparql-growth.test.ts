/**
 * Queries whose cost grows faster than their text (issue 44), on the store under test (embedded, or Virtuoso in
 * the remote pass). A fast-check generator makes growth shapes on both sides of each limit of the static cost
 * check (src/queries/query-cost.ts): UNION width, sibling OPTIONALs, chained and nested CONCAT doublings,
 * REPLACE that repeats its match, VALUES products and property-path closures. Each is either refused with a 400
 * that names a limit, or answered (200, or 504 at the deadline; on Virtuoso also its compiler's refusal, at once,
 * of a query too wide for its stack); none traps the embedded store's worker (a
 * WebAssembly trap answers 400 with the engine's message and restarts the worker), and on Virtuoso an
 * `ASK {}` sent to the server itself, every 250 ms throughout, answers within 1 s. Then the three shapes of the
 * issue, each sent 12 times, leave the REST API answering 200.
 */
import fc from 'fast-check';
import request from 'supertest';
import { COST_LIMITS } from '../../src/queries/query-cost.js';
import { PARSE_BUSY_MESSAGE } from '../../src/sparql/query-policy.js';
import { REMOTE_STORE_ENV, remoteStoreRun, startDemoApp, type DemoApp } from '../helpers/demo.js';

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
const CRM = 'http://www.cidoc-crm.org/cidoc-crm/';

/** A growth shape of size `n`, and the limit whose value it is measured against. */
const SHAPES: Record<string, { limit: number; query: (n: number) => string }> = {
  union: { limit: COST_LIMITS.maxUnionWidth, query: (n) => `SELECT * WHERE { ${range(n).map((i) => `{ ?s ?p ${i} }`).join(' UNION ')} } LIMIT 5` },
  optionals: {
    limit: COST_LIMITS.maxSiblingOptionals,
    query: (n) => `SELECT * WHERE { ?s a <${CRM}E22_Human-Made_Object> ${range(n).map((i) => `OPTIONAL { ?s ?p${i} ?v${i} }`).join(' ')} } LIMIT 5`,
  },
  doublings: {
    limit: Math.log2(COST_LIMITS.maxStringGrowth),
    query: (n) => `SELECT (STRLEN(?x${n}) AS ?len) WHERE { ?s <${CRM}P190_has_symbolic_content> ?x0 ${range(n).map((i) => `BIND(CONCAT(?x${i}, ?x${i}) AS ?x${i + 1})`).join(' ')} } LIMIT 5`,
  },
  leaves: {
    limit: COST_LIMITS.maxStringGrowth,
    query: (n) => `SELECT (STRLEN(CONCAT(${range(n).map(() => '?o').join(', ')})) AS ?len) WHERE { ?s <${CRM}P190_has_symbolic_content> ?o } LIMIT 5`,
  },
  replaces: {
    limit: Math.floor(Math.log(COST_LIMITS.maxStringGrowth) / Math.log(3)),
    query: (n) => `SELECT (STRLEN(${range(n).reduce((inner) => `REPLACE(${inner}, "^.*$", "$0$0")`, '?o')}) AS ?len) WHERE { ?s <${CRM}P190_has_symbolic_content> ?o } LIMIT 5`,
  },
  values: {
    limit: Math.floor(Math.sqrt(COST_LIMITS.maxValuesProduct)),
    query: (n) => `SELECT (COUNT(*) AS ?n) WHERE { VALUES ?a { ${range(n).join(' ')} } VALUES ?b { ${range(n).join(' ')} } }`,
  },
  closures: {
    limit: COST_LIMITS.maxClosures,
    query: (n) => `SELECT * WHERE { ?s0 a <${CRM}E22_Human-Made_Object> . ${range(n).map((i) => `?s${i} <${CRM}P${i}_x>* ?s${i + 1} .`).join(' ')} } LIMIT 5`,
  },
};

/** A refusal of the SPARQL server's own (the remote store's QueryError), as opposed to the cost check's. */
const SERVER_REFUSAL = /^The query could not be evaluated: the query is too complex for the SPARQL server to compile/;

/** The answer to an `ASK {}` sent to the server itself, in ms; Infinity when it did not answer within 1 s. */
async function askServer(url: string): Promise<number> {
  const started = performance.now();
  try {
    const res = await fetch(`${url}?query=${encodeURIComponent('ASK {}')}`, { headers: { Accept: 'application/sparql-results+json' }, signal: AbortSignal.timeout(1000) });
    await res.text();
    return res.ok ? performance.now() - started : Number.POSITIVE_INFINITY;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

describe('growth shapes on both sides of the cost limits', () => {
  let demo: DemoApp;
  const crashes: unknown[] = [];
  /** The server's answers to ASK {} while the shapes run (remote pass), in ms. */
  const asks: number[] = [];
  let probing: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();

  beforeAll(async () => {
    demo = await startDemoApp({ SPARQL_TIMEOUT_MS: '5000' }, { sparql: true });
    demo.store.on('crash', (err: unknown) => crashes.push(err));
    const url = REMOTE_STORE_ENV.STORE_URL;
    if (remoteStoreRun() && url !== undefined) {
      probing = setInterval(() => {
        inFlight = inFlight.then(async () => {
          asks.push(await askServer(url));
        });
      }, 250);
    }
  }, 600_000);
  afterAll(async () => {
    if (probing) clearInterval(probing);
    await inFlight;
    await demo.close();
  });

  it('refuses each shape past its limit with a 400 naming it, and answers it within, without a trap', async () => {
    const seen = { refused: 0, answered: 0 };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(SHAPES)), fc.double({ min: 0.25, max: 3, noNaN: true }), async (name, scale) => {
        const shape = SHAPES[name] as (typeof SHAPES)[string];
        const n = Math.max(1, Math.round(shape.limit * scale));
        const res = await request(demo.app).post('/sparql').set('Content-Type', 'application/sparql-query').set('Accept', 'application/sparql-results+json').send(shape.query(n));
        if (res.status === 400 && SERVER_REFUSAL.test(String(res.body.error))) {
          // Virtuoso's compiler refused it at once (remote pass): no hang, and the server answers on (the probes).
          expect([name, n, remoteStoreRun()]).toEqual([name, n, true]);
          seen.answered++;
        } else if (res.status === 400) {
          // A refusal of the policy names its limit; a trapped engine would say "memory access out of bounds".
          expect([name, n, res.body.error]).toEqual([name, n, expect.stringMatching(/^The query.*this endpoint accepts at most/)]);
          seen.refused++;
        } else {
          expect([name, n, [200, 504].includes(res.status)]).toEqual([name, n, true]);
          seen.answered++;
        }
      }),
      { numRuns: 40, seed: 44 },
    );
    expect(seen.refused).toBeGreaterThan(0);
    expect(seen.answered).toBeGreaterThan(0);
    expect(crashes).toEqual([]);
  }, 300_000);

  it.each(Object.keys(SHAPES))('answers the %s shape at its limit, and refuses it one past', async (name) => {
    const shape = SHAPES[name] as (typeof SHAPES)[string];
    const at = await request(demo.app).post('/sparql').set('Content-Type', 'application/sparql-query').send(shape.query(shape.limit));
    // Answered, or ended at the deadline; on Virtuoso, or refused by its compiler at once (32 sibling OPTIONALs
    // rewritten to the generation's graphs overflow its stack on some runs: SR178).
    const answered = [200, 504].includes(at.status) && at.body.error === undefined;
    const serverRefused = remoteStoreRun() && at.status === 400 && SERVER_REFUSAL.test(String(at.body.error));
    expect({ name, status: at.status, ok: answered || serverRefused }).toEqual({ name, status: at.status, ok: true });
    const past = await request(demo.app).post('/sparql').set('Content-Type', 'application/sparql-query').send(shape.query(shape.limit + 1));
    expect([past.status, past.body.error]).toEqual([400, expect.stringMatching(/this endpoint accepts at most/)]);
    expect(crashes).toEqual([]);
  }, 60_000);

  it("leaves the REST API answering while the issue's shapes arrive twelve times each", async () => {
    const hostile = [
      `SELECT * WHERE { ${range(12_000).map((i) => `{ ?s ?p ${i} }`).join(' UNION ')} }`,
      `SELECT * WHERE { ?s ?p ?x1 ${range(26).map((i) => `BIND(CONCAT(?x${i + 1}, ?x${i + 1}) AS ?x${i + 2})`).join(' ')} }`,
      `SELECT * WHERE { ?s ?p ?o ${range(3000).map((i) => `OPTIONAL { ?s <p${i}> ?v${i} }`).join(' ')} }`,
    ];
    const sent = range(12).flatMap((round) => hostile.map((query, i) => `# ${round}.${i}\n${query}`));
    const answers = await Promise.all(
      sent.map(async (query, i) => {
        await new Promise((resolve) => setTimeout(resolve, i * 50));
        return request(demo.app).post('/sparql').set('Content-Type', 'application/sparql-query').send(query);
      }),
    );
    // Refused by the policy, or (the parse worker takes each 250 kB text in turn) shed while its queue is full.
    for (const res of answers) {
      expect([res.status, res.body.error]).toEqual(res.status === 503 ? [503, PARSE_BUSY_MESSAGE] : [400, expect.stringMatching(/this endpoint accepts at most/)]);
    }
    expect(answers.filter((res) => res.status === 400).length).toBeGreaterThanOrEqual(12);
    for (const path of ['/v2/id/objects', '/v2/id/agents', '/v2/id/exhibitions', '/v2/id/concepts']) {
      expect([path, (await request(demo.app).get(path)).status]).toEqual([path, 200]);
    }
    expect(crashes).toEqual([]);
  }, 120_000);

  it('kept the server answering ASK {} within 1 s throughout (remote pass)', () => {
    if (!remoteStoreRun()) return;
    expect(asks.length).toBeGreaterThan(4);
    expect(asks.filter((ms) => ms >= 1000)).toEqual([]);
  });
});
