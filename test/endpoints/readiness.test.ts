/**
 * Ready means ready on the embedded store (issue 44): the real app over a real store worker on a copy of the demo
 * generation without its stored index, so that every collection index is built from the store after the
 * worker has loaded. /readyz must not answer 200 before every kind's index is built for the served generation,
 * and once it does, the agents' and exhibitions' first pages must answer at once. The remote store's side, with
 * the service as `npm start` runs it, is test/store/remote-readiness.test.ts.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import request from 'supertest';
import type { AppContext } from '../../src/engine/app-context.js';
import { createApp } from '../../src/app.js';
import { STORED_INDEX_FILE } from '../../src/collection-index/stored-index.js';
import { loadConfig } from '../../src/config/config.js';
import { sharedIndexes } from '../../src/engine/indexes.js';
import { Metrics } from '../../src/http/metrics.js';
import { KIND_NAMES } from '../../src/kinds/index.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { Iris } from '../../src/vocab/iris.js';
import { demoData, TEST_BASE_URL } from '../helpers/demo.js';
import { memoryLogger } from '../helpers/http-context.js';

/**
 * What a first page may take once /readyz said 200: answered from the index, one page query on the store (tens of
 * ms; the margin is for a machine that other work keeps busy), against the 16 s of an index built on request.
 */
const FIRST_PAGE_BUDGET_MS = 5_000;

describe('/readyz on the embedded store', () => {
  let root: string;
  let store: StoreManager | undefined;

  afterAll(async () => {
    await store?.close();
    // Retried: the stored index written next to the generation after the build may still be landing.
    if (root !== undefined) await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });

  it('is not 200 before every kind\'s collection index is built, and the first pages answer at once after', async () => {
    const data = await demoData();
    root = await mkdtemp(join(tmpdir(), 'readiness-'));
    const dataDir = join(root, 'data');
    // The demo generation without its stored index (a test before may have written one into the shared copy).
    const dir = join(dataDir, 'generations', basename(data.generation.dir));
    await cp(data.generation.dir, dir, { recursive: true, filter: (source) => basename(source) !== STORED_INDEX_FILE });
    store = new StoreManager({ includeNonPublic: true });
    await store.start(dir);
    const config = loadConfig({ BASE_URL: TEST_BASE_URL, DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent' });
    const ctx: AppContext = { config, iris: new Iris(TEST_BASE_URL), store, logger: memoryLogger('fatal').logger, metrics: new Metrics(), queries: new QueryLibrary(), kinds: KIND_NAMES };
    const app = createApp(ctx);
    const generationId = store.generation?.id ?? '';

    const seen: string[] = [];
    for (;;) {
      const readyz = await request(app).get('/readyz');
      const body = readyz.body as { status: string; building?: string[] };
      if (readyz.status === 200) {
        // Every kind answers from its index from the first 200 on.
        for (const kind of KIND_NAMES.list) expect({ kind: kind.collection, built: sharedIndexes(ctx, kind).builtFor(generationId) }).toEqual({ kind: kind.collection, built: true });
        break;
      }
      expect({ status: readyz.status, retryAfter: readyz.headers['retry-after'] }).toEqual({ status: 503, retryAfter: '5' });
      if (body.status === 'indexing') expect(body.building?.length).toBeGreaterThan(0);
      seen.push(body.status);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // The worker had loaded before the app was made: what /readyz waited for was the indexes.
    expect(seen[0]).toBe('indexing');
    for (const path of ['/v2/id/agents', '/v2/id/exhibitions']) {
      const asked = performance.now();
      const page = await request(app).get(path);
      expect({ path, status: page.status }).toEqual({ path, status: 200 });
      expect(performance.now() - asked).toBeLessThan(FIRST_PAGE_BUDGET_MS);
    }
  }, 180_000);
});
