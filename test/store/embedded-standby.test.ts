/**
 * "A runaway query no longer takes /sparql down" (issue 13) on the real app over real store workers on the demo
 * generation: with a standby SPARQL worker (StoreManager `standby`, as server.ts starts the SPARQL store), a query
 * ended at its deadline answers 504 and /sparql answers 200 again within 5 s (the standby serves at once; without
 * it the whole public file reloads); the REST store keeps one worker.
 */
import request from 'supertest';
import type { StoreManager } from '../../src/store/store-manager.js';
import { startDemoApp, type DemoApp } from '../helpers/demo.js';

const RUNAWAY = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }';
const DEADLINE = 1500;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('/sparql with a standby SPARQL worker', () => {
  let demo: DemoApp;
  let app: DemoApp['app'];
  let store: StoreManager;
  let sparqlStore: StoreManager;
  let probes = 0;

  beforeAll(async () => {
    demo = await startDemoApp(
      // Every probe runs its query on the store: no answer from the result cache.
      { SPARQL_TIMEOUT_MS: String(DEADLINE), SPARQL_RESULT_CACHE_MB: '0' },
      { sparql: true, standby: true },
    );
    app = demo.app;
    store = demo.store as StoreManager;
    sparqlStore = demo.sparqlStore as StoreManager;
  }, 600_000);
  afterAll(async () => {
    await demo?.close();
  });

  const untilStandby = async (): Promise<void> => {
    const started = performance.now();
    while (!sparqlStore.standbyReady()) {
      if (performance.now() - started > 50_000) throw new Error('the standby SPARQL worker did not load within 50 s');
      await sleep(50);
    }
  };
  /** A runaway query, then a query never asked before every 25 ms until one answers 200: the statuses and the time. */
  const runawayThenAnswer = async (): Promise<{ runaway: number; probes: number[]; ms: number }> => {
    const runaway = await request(app).get('/sparql').query({ query: RUNAWAY });
    const started = performance.now();
    const statuses: number[] = [];
    while (performance.now() - started < 10_000) {
      const res = await request(app).get('/sparql').query({ query: `ASK { ?s ?p "probe ${++probes}" }` });
      statuses.push(res.status);
      if (res.status === 200) break;
      await sleep(25);
    }
    return { runaway: runaway.status, probes: statuses, ms: performance.now() - started };
  };

  it('answers 200 again within 5 s after a query is ended at its deadline, twice in a row', async () => {
    for (let round = 0; round < 2; round++) {
      // The standby lost to the first runaway loads again behind the worker that took over.
      await untilStandby();
      const { runaway, probes: statuses, ms } = await runawayThenAnswer();
      expect(runaway).toBe(504);
      expect(statuses[statuses.length - 1]).toBe(200);
      expect(ms).toBeLessThan(5000);
      // In fact at once: the standby took over before the 504 was sent.
      expect(statuses).toEqual([200]);
    }
  });

  it('keeps the REST store on one worker, with no standby', () => {
    expect(store.ready()).toBe(true);
    expect(store.standbyReady()).toBe(false);
  });
});
