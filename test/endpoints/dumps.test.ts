/**
 * N-Quads dumps (issue 7, Dumps): the collection dump is the generation's public.nq.gz byte for byte, with the
 * generation's validators and Range support so a broken download resumes; per-kind dumps hold exactly the
 * record graphs of their kind; the catalog lists every dump; and a downloaded dump loads back (`npm run load`
 * path), dumps and loads again to the same data.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import request from 'supertest';
import { dumpCurrent } from '../../src/store/dump.js';
import { generationFiles } from '../../src/store/generations.js';
import { loadNQuadsFile } from '../../src/store/load.js';
import { startDemoApp, TEST_BASE_URL, type DemoApp } from '../helpers/demo.js';
import { KIND_NAMES } from '../../src/kinds/index.js';

/** supertest collects a binary body as a Buffer with this parser. */
const binary = (res: request.Response, done: (err: Error | null, body: Buffer) => void): void => {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};

const lines = (gz: Buffer): string[] =>
  gunzipSync(gz)
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '');

let demo: DemoApp;
let publicFile: Buffer;
beforeAll(async () => {
  demo = await startDemoApp();
  publicFile = readFileSync(generationFiles(demo.data.generation.dir).public);
}, 600_000);
afterAll(() => demo.close());

const download = (target: string) => request(demo.app).get(target).buffer(true).parse(binary);

describe('GET /v2/dumps/collection.nq.gz', () => {
  it('sends the generation’s public.nq.gz byte for byte, as a gzip download', async () => {
    const res = await download('/v2/dumps/collection.nq.gz');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/gzip');
    expect(res.headers['content-disposition']).toBe('attachment; filename="collection.nq.gz"');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(Number(res.headers['content-length'])).toBe(publicFile.length);
    expect(Buffer.compare(res.body as Buffer, publicFile)).toBe(0);
  });

  it('carries the generation’s validators: a strong ETag and its creation time', async () => {
    const res = await request(demo.app).head('/v2/dumps/collection.nq.gz');
    const { id, created } = demo.data.generation.manifest;
    expect(res.headers.etag).toBe(`"${id}-collection"`);
    expect(res.headers['last-modified']).toBe(new Date(created).toUTCString());
    const again = await request(demo.app).get('/v2/dumps/collection.nq.gz').set('If-None-Match', `"${id}-collection"`);
    expect(again.status).toBe(304);
  });

  it('answers a Range request with exactly those bytes (206)', async () => {
    const res = await download('/v2/dumps/collection.nq.gz').set('Range', 'bytes=100-1099');
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 100-1099/${publicFile.length}`);
    expect(Buffer.compare(res.body as Buffer, publicFile.subarray(100, 1100))).toBe(0);
  });

  it('resumes a broken download: If-Range with the ETag gives the rest, a stale ETag the whole file', async () => {
    const { id } = demo.data.generation.manifest;
    const half = Math.floor(publicFile.length / 2);
    const first = await download('/v2/dumps/collection.nq.gz').set('Range', `bytes=0-${half - 1}`);
    const rest = await download('/v2/dumps/collection.nq.gz').set('Range', `bytes=${half}-`).set('If-Range', `"${id}-collection"`);
    expect(rest.status).toBe(206);
    expect(Buffer.compare(Buffer.concat([first.body as Buffer, rest.body as Buffer]), publicFile)).toBe(0);
    const stale = await download('/v2/dumps/collection.nq.gz').set('Range', `bytes=${half}-`).set('If-Range', '"an-older-generation-collection"');
    expect(stale.status).toBe(200);
    expect((stale.body as Buffer).length).toBe(publicFile.length);
  });

  it('answers 416 to a range past the end', async () => {
    const res = await request(demo.app).get('/v2/dumps/collection.nq.gz').set('Range', `bytes=${publicFile.length + 10}-`);
    expect(res.status).toBe(416);
  });
});

describe('per-kind dumps', () => {
  const kinds = [
    ['objects', 'object'],
    ['agents', 'agent'],
    ['exhibitions', 'exhibition'],
    ['concepts', 'concept'],
  ] as const;

  it.each(kinds)('%s.nq.gz holds exactly the public quads whose graph is a record of kind %s', async (file, kind) => {
    const res = await download(`/v2/dumps/${file}.nq.gz`);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${file}.nq.gz"`);
    expect(res.headers.etag).toBe(`"${demo.data.generation.manifest.id}-${file}"`);
    const graph = new RegExp(`<${TEST_BASE_URL}/v2/id/${kind}/[^/>]+> \\.$`);
    const expected = lines(publicFile).filter((l) => graph.test(l));
    expect(expected.length).toBeGreaterThan(0);
    expect(lines(res.body as Buffer).sort()).toEqual(expected.sort());
  });

  it('supports Range on per-kind dumps too', async () => {
    const whole = (await download('/v2/dumps/agents.nq.gz')).body as Buffer;
    const part = await download('/v2/dumps/agents.nq.gz').set('Range', 'bytes=10-19');
    expect(part.status).toBe(206);
    expect(Buffer.compare(part.body as Buffer, whole.subarray(10, 20))).toBe(0);
  });

  it('answers 404 to a dump that does not exist', async () => {
    expect((await request(demo.app).get('/v2/dumps/private.nq.gz')).status).toBe(404);
  });
});

describe('dumps in the DCAT catalog', () => {
  it('lists a download URL for every dump, each of which answers', async () => {
    const catalog = (await request(demo.app).get('/v2/dcat')).body as Record<string, unknown>;
    const datasets = catalog['dcat:dataset'] as { 'dcat:distribution': { 'dcat:downloadURL'?: { '@id': string } }[] }[];
    const urls = [
      ...datasets.flatMap((d) => d['dcat:distribution'].map((x) => x['dcat:downloadURL']?.['@id'])),
      // The catalog's distributions are the dump and the change feed (which has an access URL, no download).
      ...(catalog['dcat:distribution'] as { 'dcat:downloadURL'?: { '@id': string } }[]).map((x) => x['dcat:downloadURL']?.['@id']),
    ].filter((u): u is string => u !== undefined);
    expect(urls.map((u) => u.replace(TEST_BASE_URL, '')).sort()).toEqual(
      ['/v2/dumps/agents.nq.gz', '/v2/dumps/collection.nq.gz', '/v2/dumps/concepts.nq.gz', '/v2/dumps/exhibitions.nq.gz', '/v2/dumps/objects.nq.gz'],
    );
    for (const url of urls) expect((await request(demo.app).head(url.replace(TEST_BASE_URL, ''))).status).toBe(200);
  });
});

describe('round trip of a downloaded dump through load and dump', () => {
  it('loads what it downloaded, dumps it, loads that again: the same quads every time', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'dump-roundtrip-'));
    try {
      const downloaded = path.join(dir, 'downloaded.nq.gz');
      await writeFile(downloaded, (await download('/v2/dumps/collection.nq.gz')).body as Buffer);
      const first = await loadNQuadsFile(path.join(dir, 'a'), downloaded, { kinds: KIND_NAMES });
      const redumped = path.join(dir, 'redumped.nq.gz');
      await dumpCurrent(path.join(dir, 'a'), redumped);
      const second = await loadNQuadsFile(path.join(dir, 'b'), redumped, { kinds: KIND_NAMES });
      const original = lines(publicFile).sort();
      // Loading writes canonical lines and keeps blank node labels, so the same data is the same sorted lines.
      expect(lines(readFileSync(generationFiles(first.dir).public)).sort()).toEqual(original);
      expect(lines(readFileSync(redumped)).sort()).toEqual(original);
      expect(lines(readFileSync(generationFiles(second.dir).public)).sort()).toEqual(original);
      expect(second.manifest.counts.publicRecords).toEqual(demo.data.generation.manifest.counts.publicRecords);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
