/**
 * GET|HEAD /v2/id/concept/{PID} against the spec's concept table, on every public demo concept. Expected values
 * are computed from the source export (the JSON Lines files), never from the service's output; the compiled
 * frame is held byte-equal to jsonld.js framing of the stored graph. The demo thesaurus has no private concept
 * and no broader term given as the external URI of a thesaurus concept, so those cases run on a copy of the
 * source-mini export, harvested here into a generation of its own.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Express } from 'express';
import jsonld from 'jsonld';
import { Parser } from 'n3';
import { isomorphic } from 'rdf-isomorphic';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import type { AppContext } from '../../src/engine/app-context.js';
import { loadConfig } from '../../src/config/config.js';
import { harvestExport } from '../../src/harvest/harvest.js';
import type { ConceptRecord } from '../../src/harvest/schema.js';
import { Metrics } from '../../src/http/metrics.js';
import { QueryLibrary } from '../../src/queries/library.js';
import { refuseRemoteDocuments } from '../../src/shaping/jsonld.js';
import { createGeneration } from '../../src/store/generations.js';
import { StoreManager } from '../../src/store/store-manager.js';
import { Iris } from '../../src/vocab/iris.js';
import { copyFixture, removeCopy, replaceLine } from '../fixtures/source-mini/harvest-fixture.js';
import { memoryLogger } from '../helpers/http-context.js';
import { sourceRecords, startDemoApp, TEST_BASE_URL, type DemoApp } from '../helpers/demo.js';
import { coveringSample } from '../helpers/sample.js';
import { rdfRecordEtag } from '../helpers/record-etag.js';
import { KIND_NAMES } from '../../src/kinds/index.js';
import { untilIndexesBuilt } from '../helpers/ready-app.js';

type Json = Record<string, unknown>;
const B = TEST_BASE_URL;
const LANGS = ['nl', 'fr', 'en'] as const;
const conceptIri = (pid: string) => `${B}/v2/id/concept/${pid}`;
const arr = (v: unknown): Json[] => (v === undefined ? [] : Array.isArray(v) ? (v as Json[]) : [v as Json]);
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_key, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Json).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : Array.isArray(value) && value.every((x) => typeof x === 'string')
        ? [...(value as string[])].sort()
        : value,
  );
/** Nodes as a sorted list of canonical texts: key order and the order of string lists (sameAs) do not count. */
const bag = (nodes: unknown[]): string[] => nodes.map(canonical).sort();

/** What the source says a concept record holds: the expectations of the spec's concept table. */
class Thesaurus {
  readonly byPid: Map<string, ConceptRecord>;
  private readonly bySameAs = new Map<string, string>();

  constructor(readonly concepts: ConceptRecord[]) {
    this.byPid = new Map(concepts.map((c) => [c.pid, c]));
    for (const c of concepts) for (const uri of c.sameAs) if (!this.bySameAs.has(uri)) this.bySameAs.set(uri, c.pid);
  }

  /** The thesaurus pid a broader reference names (a pid, or an external URI that is a concept's sameAs). */
  internal(ref: ConceptRecord['broader'][number]): string | undefined {
    return typeof ref === 'string' ? ref : this.bySameAs.get(ref.uri);
  }

  /** A thesaurus concept as a related node: internal @id, its Dutch label and sameAs when it is public. */
  related(pid: string): Json {
    const c = this.byPid.get(pid)!;
    const node: Json = { '@id': conceptIri(pid) };
    if (c.public) node['rdfs:label'] = c.labels.nl;
    if (c.public && c.sameAs.length > 0) node['owl:sameAs'] = c.sameAs;
    return node;
  }

  broader(c: ConceptRecord): Json[] {
    const out = new Map<string, Json>();
    for (const ref of c.broader) {
      const pid = this.internal(ref);
      if (pid === c.pid) continue;
      if (pid !== undefined) out.set(conceptIri(pid), this.related(pid));
      else if (typeof ref !== 'string' && !out.has(ref.uri)) out.set(ref.uri, { '@id': ref.uri, 'rdfs:label': ref.label });
    }
    return [...out.values()];
  }

  /** Every public concept whose broader list names `c`. */
  narrower(c: ConceptRecord): Json[] {
    return this.concepts.filter((n) => n.public && n.pid !== c.pid && n.broader.some((ref) => this.internal(ref) === c.pid)).map((n) => this.related(n.pid));
  }

  expected(c: ConceptRecord): Json {
    const texts = (t: Partial<Record<'nl' | 'fr' | 'en', string>>) => LANGS.filter((l) => t[l] !== undefined).map((l) => ({ '@value': t[l], '@language': l }));
    const r: Json = { '@id': conceptIri(c.pid), '@type': 'crm:E55_Type', 'rdfs:label': c.labels.nl };
    if (c.sameAs.length > 0) r['owl:sameAs'] = c.sameAs;
    r['prov:generatedAtTime'] = { '@type': 'xsd:dateTime', '@value': c.harvestedAt };
    r['skos:prefLabel'] = texts(c.labels);
    if (texts(c.scopeNotes).length > 0) r['skos:scopeNote'] = texts(c.scopeNotes);
    const broader = this.broader(c);
    if (broader.length > 0) r['skos:broader'] = broader;
    const narrower = this.narrower(c);
    if (narrower.length > 0) r['skos:narrower'] = narrower;
    return r;
  }
}

/** The record without its context, with broader and narrower as bags, for comparison with `Thesaurus.expected`. */
function comparable(r: Json): Json {
  const { '@context': _context, ...rest } = r;
  for (const key of ['skos:broader', 'skos:narrower']) if (key in rest) rest[key] = bag(arr(rest[key]));
  if (Array.isArray(rest['owl:sameAs'])) rest['owl:sameAs'] = [...(rest['owl:sameAs'] as string[])].sort();
  return rest;
}
function expectedComparable(e: Json): Json {
  const out = { ...e };
  for (const key of ['skos:broader', 'skos:narrower']) if (key in out) out[key] = bag(arr(out[key]));
  if (Array.isArray(out['owl:sameAs'])) out['owl:sameAs'] = [...(out['owl:sameAs'] as string[])].sort();
  return out;
}

async function getConcept(app: Express, pid: string): Promise<Json> {
  const res = await request(app).get(`/v2/id/concept/${pid}`);
  expect([pid, res.status]).toEqual([pid, 200]);
  return JSON.parse(res.text) as Json;
}

let demo: DemoApp;
let thesaurus: Thesaurus;
let publicConcepts: ConceptRecord[];
/** The public concepts checked one by one: a sample that shows every feature of them, narrower terms too (test/helpers/sample.ts). */
let sampledConcepts: ConceptRecord[];

async function storedGraph(ctx: AppContext, pid: string): Promise<string> {
  return ctx.store.query(ctx.queries.bind('records/record', { record: conceptIri(pid), admin: ctx.iris.adminGraph }), { format: 'application/n-quads' });
}

beforeAll(async () => {
  demo = await startDemoApp();
  thesaurus = new Thesaurus(sourceRecords(demo.data, 'concepts') as ConceptRecord[]);
  publicConcepts = thesaurus.concepts.filter((c) => c.public);
  // Beyond its own fields: how many narrower terms it has, and whether each broader term is a pid, an external
  // term, or an external URI that is the sameAs of a concept of this thesaurus.
  sampledConcepts = coveringSample(publicConcepts, {
    features: (c) => [
      `narrower:${Math.min(thesaurus.narrower(c).length, 2)}`,
      ...c.broader.map((ref) => (typeof ref === 'string' ? 'broader:pid' : thesaurus.internal(ref) !== undefined ? 'broader:sameAs' : 'broader:external')),
    ],
  });
}, 180_000);
afterAll(async () => demo?.close());

describe('Concept record', () => {
  it('validates against schemas/concept.schema.json for the sampled public demo concepts', async () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(new URL('../../schemas/concept.schema.json', import.meta.url), 'utf8')) as object);
    expect(publicConcepts.length).toBeGreaterThan(400);
    for (const c of sampledConcepts) {
      const r = await getConcept(demo.app, c.pid);
      if (!validate(r)) throw new Error(`${c.pid}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
    }
  }, 120_000);

  it('matches the source for type, label, sameAs, SKOS labels and scope notes, broader and narrower on the sampled public demo concepts', async () => {
    for (const c of sampledConcepts) {
      const r = await getConcept(demo.app, c.pid);
      expect(comparable(r)).toEqual(expectedComparable(thesaurus.expected(c)));
      // Several values are always arrays, even one.
      for (const key of ['owl:sameAs', 'skos:prefLabel', 'skos:scopeNote', 'skos:broader', 'skos:narrower']) if (key in r) expect(Array.isArray(r[key])).toBe(true);
      expect(arr(r['skos:prefLabel'])[0]).toEqual({ '@value': c.labels.nl, '@language': 'nl' });
    }
  }, 120_000);

  it('gives a broader thesaurus concept its internal @id and keeps an external broader term under its own URI, both cases computed from the source', async () => {
    const internal = publicConcepts.find((c) => c.broader.some((b) => typeof b === 'string'))!;
    const external = publicConcepts.find((c) => c.broader.some((b) => typeof b !== 'string' && thesaurus.internal(b) === undefined))!;
    expect(internal).toBeDefined();
    expect(external).toBeDefined();
    const parentPid = internal.broader.find((b): b is string => typeof b === 'string')!;
    const broader = arr((await getConcept(demo.app, internal.pid))['skos:broader']);
    const parent = broader.find((b) => b['@id'] === conceptIri(parentPid))!;
    expect(parent['rdfs:label']).toBe(thesaurus.byPid.get(parentPid)!.labels.nl);
    expect([...(parent['owl:sameAs'] as string[])].sort()).toEqual([...thesaurus.byPid.get(parentPid)!.sameAs].sort());

    const term = external.broader.find((b): b is { uri: string; label: string } => typeof b !== 'string')!;
    const externalBroader = arr((await getConcept(demo.app, external.pid))['skos:broader']);
    expect(externalBroader).toContainEqual({ '@id': term.uri, 'rdfs:label': term.label });
  });

  it('lists as narrower every public concept whose broader list names the concept, with internal @ids', async () => {
    let withChildren = 0;
    for (const c of publicConcepts) {
      const children = publicConcepts.filter((n) => n.broader.some((ref) => thesaurus.internal(ref) === c.pid)).map((n) => conceptIri(n.pid));
      const r = await getConcept(demo.app, c.pid);
      expect([c.pid, arr(r['skos:narrower']).map((n) => n['@id']).sort()]).toEqual([c.pid, children.sort()]);
      if (children.length > 0) withChildren++;
    }
    expect(withChildren).toBeGreaterThan(20);
  }, 120_000);

  it('expands again with jsonld.js into exactly the stored graph, bookkeeping aside', async () => {
    const drop = new Set(['http://purl.org/dc/terms/modified', 'http://www.w3.org/2002/07/owl#sameAs']);
    for (const c of publicConcepts) {
      const r = await getConcept(demo.app, c.pid);
      const expanded = (await jsonld.expand(r as never, { documentLoader: refuseRemoteDocuments } as never)) as unknown as Json[];
      expect(expanded).toHaveLength(1);
      expect(expanded[0]!['@type']).toEqual(['http://www.cidoc-crm.org/cidoc-crm/E55_Type']);
      expect(expanded[0]!['http://www.w3.org/2004/02/skos/core#prefLabel']).toContainEqual({ '@value': c.labels.nl, '@language': 'nl' });
      const served = (await jsonld.toRDF(r as never, { format: 'application/n-quads', documentLoader: refuseRemoteDocuments } as never)) as unknown as string;
      const stored = new Parser({ format: 'N-Quads' }).parse(await storedGraph(demo.ctx, c.pid)).filter((q) => !drop.has(q.predicate.value));
      expect([c.pid, isomorphic(new Parser({ format: 'N-Quads' }).parse(served), stored)]).toEqual([c.pid, true]);
    }
  }, 120_000);
});

describe('Concept record: HTTP', () => {
  const pid = '530001000';
  const harvestedAt = (): Date => new Date(thesaurus.byPid.get(pid)!.harvestedAt);

  it('serves the stored graph as Turtle on request, with its own ETag and still no Cache-Control', async () => {
    const res = await request(demo.app).get(`/v2/id/concept/${pid}`).set('Accept', 'text/turtle');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/turtle; charset=utf-8');
    expect(res.headers.etag).toMatch(rdfRecordEtag(pid, harvestedAt(), 'ttl'));
    expect(res.headers['cache-control']).toBeUndefined();
    expect(isomorphic(new Parser({ format: 'Turtle' }).parse(res.text), new Parser({ format: 'N-Quads' }).parse(await storedGraph(demo.ctx, pid)))).toBe(true);
  });
});

/**
 * The cases the demo lacks, on the source-mini export: private concept 530000999 (given vaatwerk 530000100 as
 * broader here), theepot 530000101 whose broader is the external URI that is vaatwerk's sameAs.
 */
describe('Concept record: private concepts and broader terms given by a thesaurus concept’s external URI', () => {
  let dir: string;
  let dataDir: string;
  let store: StoreManager;
  let app: Express;
  let mini: Thesaurus;

  beforeAll(async () => {
    dir = await copyFixture();
    const lines = (await readFile(join(dir, 'concepts.jsonl'), 'utf8')).split('\n');
    const line = lines.findIndex((l) => l.includes('"530000999"')) + 1;
    const secret = JSON.parse(lines[line - 1]!) as ConceptRecord;
    expect(secret.public).toBe(false);
    await replaceLine(dir, 'concepts.jsonl', line, JSON.stringify({ ...secret, broader: ['530000100'] }));
    mini = new Thesaurus(
      (await readFile(join(dir, 'concepts.jsonl'), 'utf8'))
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as ConceptRecord),
    );
    dataDir = await mkdtemp(join(tmpdir(), 'concept-record-'));
    const generation = await createGeneration(dataDir, { source: { kind: 'harvest', path: dir }, baseUrl: B, kinds: KIND_NAMES }, async (out) => ({
      details: { ...(await harvestExport(dir, out, { baseUrl: B, imageHosts: [] })) },
    }));
    store = new StoreManager({ includeNonPublic: true });
    await store.start(generation.dir);
    const config = loadConfig({ BASE_URL: B, DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent' });
    const ctx: AppContext = { config, iris: new Iris(config.baseUrl), store, logger: memoryLogger('fatal').logger, metrics: new Metrics(), queries: new QueryLibrary(), kinds: KIND_NAMES };
    app = createApp(ctx);
    await untilIndexesBuilt(ctx);
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    if (dir) await removeCopy(dir);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('answers 404 {"error":"Concept not found"} for a private concept, GET and HEAD', async () => {
    const res = await request(app).get('/v2/id/concept/530000999');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Concept not found' });
    expect(res.text).not.toContain('geheim');
    expect((await request(app).head('/v2/id/concept/530000999')).status).toBe(404);
  });

  it('resolves a broader term given as the external URI of a thesaurus concept to its internal @id, keeping that URI as sameAs', async () => {
    const theepot = mini.byPid.get('530000101')!;
    const ref = theepot.broader[0] as { uri: string; label: string };
    expect(mini.internal(ref)).toBe('530000100');
    const r = await getConcept(app, '530000101');
    expect(r['skos:broader']).toEqual([{ '@id': conceptIri('530000100'), 'rdfs:label': 'vaatwerk', 'owl:sameAs': [ref.uri] }]);
  });

  it('matches the source on every public concept of the export', async () => {
    for (const c of mini.concepts.filter((x) => x.public)) {
      const r = await getConcept(app, c.pid);
      expect(comparable(r)).toEqual(expectedComparable(mini.expected(c)));
    }
  });

  it('lists as narrower only public concepts, so a private child never appears', async () => {
    const r = await getConcept(app, '530000100');
    expect(arr(r['skos:narrower']).map((n) => n['@id']).sort()).toEqual([conceptIri('530000049'), conceptIri('530000101')]);
    expect(JSON.stringify(r)).not.toContain('530000999');
  });
});
