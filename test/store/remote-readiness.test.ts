/**
 * Ready means ready (issue 44), on a real Virtuoso with the service as `npm start` runs it. A replica whose
 * generation has no stored-index.bin used to say ready at once and then run every kind's index queries on the
 * server for its requests (504 past the server's time limit); now it computes the stored index before the
 * generation serves, writes it next to the generation, and /readyz turns 200 only when every kind's first page
 * answers from its index; a swap to such a generation keeps the old one serving until the new one is indexed.
 * A replica whose STORE_PASSWORD the server refuses used to say ready too; now its start
 * fails with one line naming the setting, never the password.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storedIndexFile } from '../../src/collection-index/stored-index.js';
import { loadConfig } from '../../src/config/config.js';
import { setCurrent, type Generation } from '../../src/store/generations.js';
import { ensurePublished } from '../../src/store/stores.js';
import { runServiceToExit, startService, type ServiceProcess } from '../helpers/service-process.js';
import { makeSmallGeneration } from '../helpers/small-generation.js';
import { describeWithVirtuoso, startVirtuoso, type VirtuosoServer } from '../helpers/virtuoso.js';

const FILE = 'test/store/remote-readiness.test.ts';
const BASE = 'http://localhost:3000';
/** What a first page may take once /readyz said 200: answered from the index, one page query on the server. */
const FIRST_PAGE_BUDGET_MS = 2_000;

describeWithVirtuoso(FILE)('readiness of a replica on the remote store', () => {
  let virtuoso: VirtuosoServer;
  let root: string;
  let dataDir: string;
  let generation: Generation;
  /** Made beside the first, neither current nor on the server until the swap test. */
  let second: Generation;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'remote-readiness-'));
    dataDir = join(root, 'data');
    // Made while Virtuoso starts, written to it once it answers.
    const making = (async () => {
      const made = await makeSmallGeneration({ dataDir, baseUrl: BASE }, root, { seed: 1, publish: false });
      return [made, await makeSmallGeneration({ dataDir, baseUrl: BASE }, root, { seed: 2, publish: false, current: false })] as const;
    })();
    virtuoso = await startVirtuoso();
    [generation, second] = await making;
    const config = loadConfig({ BASE_URL: BASE, DATA_DIR: dataDir, STORE_URL: virtuoso.sparqlUrl, STORE_USER: virtuoso.user, STORE_PASSWORD: virtuoso.password });
    for (const made of [generation, second]) await ensurePublished(config, made.dir);
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
    await virtuoso?.stop();
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  });

  it('says ready on a generation without its stored index only once every kind answers from its index', async () => {
    // A generation written by an older release, or whose file was deleted.
    await rm(storedIndexFile(generation.dir));
    const answers: { status: number; body: string }[] = [];
    const started = performance.now();
    service = await startService(
      { BASE_URL: BASE, DATA_DIR: dataDir, STORE_URL: virtuoso.sparqlUrl, STORE_USER: virtuoso.user, STORE_PASSWORD: virtuoso.password },
      60_000,
      (answer) => answers.push(answer),
    );
    const readyMs = performance.now() - started;
    // Computed before the generation served, and written next to it for the next replica.
    expect(existsSync(storedIndexFile(generation.dir))).toBe(true);
    const pages: Record<string, { status: number; ms: number }> = {};
    for (const path of ['/v2/id/agents', '/v2/id/exhibitions', '/v2/id/objects', '/v2/id/concepts']) {
      const asked = performance.now();
      const response = await fetch(`${service.origin}${path}`, { signal: AbortSignal.timeout(20_000) });
      await response.arrayBuffer();
      pages[path] = { status: response.status, ms: Math.round(performance.now() - asked) };
    }
    for (const [path, page] of Object.entries(pages)) {
      expect({ path, status: page.status }).toEqual({ path, status: 200 });
      expect(page.ms).toBeLessThan(FIRST_PAGE_BUDGET_MS);
    }
    // Every answer before the 200 was a 503 that says why; the stored index, when it was seen, by name.
    const before = answers.slice(0, -1);
    for (const answer of before) expect(answer.status).toBe(503);
    const statuses = [...new Set(before.map((answer) => (JSON.parse(answer.body) as { status: string; building?: string[] }).status))];
    expect(statuses.every((status) => ['loading', 'indexing'].includes(status))).toBe(true);
    console.log(`${FILE}: ready ${Math.round(readyMs)} ms after the start (/readyz before: ${statuses.join(', ') || 'none polled'}); first pages ${JSON.stringify(pages)}`);
  }, 90_000);

  it('keeps the old generation serving through a swap to a generation without its stored index, until the new one is indexed', async () => {
    const origin = service?.origin;
    if (origin === undefined) throw new Error('the replica of the first test is not running');
    await rm(storedIndexFile(second.dir));
    await setCurrent(dataDir, second.id);
    const objectsOf = (body: string): string[] => [...body.matchAll(/\/v2\/id\/object\/(G\d)-\d+/g)].map((match) => match[1]!);
    const seen: { generation: string; objects: string }[] = [];
    const started = performance.now();
    for (;;) {
      const [readyz, page] = await Promise.all(['/readyz', '/v2/id/objects'].map((path) => fetch(`${origin}${path}`, { signal: AbortSignal.timeout(10_000) })));
      const body = (await readyz!.json()) as { generation: string };
      const objects = [...new Set(objectsOf(await page!.text()))].join(',');
      // Neither the replica nor its collection stops answering while the new generation is indexed (a 503's
      // body says why: the store unavailable, or what is still built).
      const why = readyz!.status === 200 ? {} : { body };
      expect({ readyz: readyz!.status, objects: page!.status, ...why }).toEqual({ readyz: 200, objects: 200 });
      seen.push({ generation: body.generation, objects });
      if (body.generation === second.id) break;
      if (performance.now() - started > 30_000) throw new Error(`still serving ${body.generation} after 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(existsSync(storedIndexFile(second.dir))).toBe(true);
    // Until the switch, the first generation's objects; from it, the second's.
    expect(seen.slice(0, -1).every(({ generation: id, objects }) => id === generation.id && objects === 'G1')).toBe(true);
    const after = await fetch(`${origin}/v2/id/objects`);
    expect([after.status, [...new Set(objectsOf(await after.text()))].join(',')]).toEqual([200, 'G2']);
    console.log(`${FILE}: swapped after ${Math.round(performance.now() - started)} ms, ${seen.length} polls, every one 200 from the old generation until the switch`);
  }, 60_000);

  it('fails the start when the server refuses STORE_PASSWORD, in one line that names the setting and never the password', async () => {
    const password = 'not-the-password-7f3a9c';
    const run = await runServiceToExit({ BASE_URL: BASE, DATA_DIR: dataDir, STORE_URL: virtuoso.sparqlUrl, STORE_USER: virtuoso.user, STORE_PASSWORD: password });
    expect(run.code).not.toBe(0);
    expect(run.code).not.toBeNull();
    const lines = run.stderr.split('\n').filter((line) => line !== '');
    expect(lines).toEqual([expect.stringMatching(/^STORE_USER or STORE_PASSWORD is wrong: the SPARQL server at \S+ refuses them \(401\)/)]);
    expect(`${run.stdout}${run.stderr}`).not.toContain(password);
  }, 60_000);
});
