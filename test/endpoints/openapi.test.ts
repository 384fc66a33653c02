/**
 * GET /openapi.json: the OpenAPI 3.1 description of the service. Three things are held true here:
 *   1. the document has the shape of OpenAPI 3.1 (version, info, paths and operations with responses, path
 *      templates matching their path parameters, unique operation ids, well-formed parameters and media types)
 *      and every `$ref` in it resolves; its component schemas are valid JSON Schema 2020-12;
 *   2. it cannot drift from the code's declarations: every record path, filter parameter, reserved parameter
 *      and sort key of every kind is in it, each parameter described by hand;
 *   3. real responses of the real app on the demo store, for every endpoint and the statuses it answers
 *      (200, 301, 304, 400, 404, 410, 429, 500, 503, and 406 on /sparql), are documented for their path and
 *      status, carry the headers documented as required, and validate (Ajv 2020) against the documented schema
 *      of their media type.
 * Expected values come from the spec and the demo's source export, never from the service's output.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import request from 'supertest';
import type { Response } from 'supertest';
import { createApp } from '../../src/app.js';
import type { AppContext } from '../../src/engine/app-context.js';
import type { AgentRecord, ConceptRecord, ExhibitionRecord, ObjectRecord } from '../../src/harvest/schema.js';
import { KINDS } from '../../src/kinds/index.js';
import { UNDESCRIBED } from '../../src/openapi/parameters.js';
import { sourceObjects, sourceRecords, startDemoApp, TEST_BASE_URL, type DemoApp } from '../helpers/demo.js';
import { ReadinessOnlyStore } from '../helpers/http-context.js';

type Json = Record<string, unknown>;
const DOC_ID = 'urn:museum-ld:openapi';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

let demo: DemoApp;
let doc: Json;
let ajv: Ajv2020;
let objects: ObjectRecord[];

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const unescapePointer = (part: string): string => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');

/** The value at a local JSON pointer (`#/components/schemas/X`) of the document, or undefined. */
function atPointer(ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = doc;
  for (const part of ref.slice(1).split('/').slice(1)) {
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[unescapePointer(part)];
    if (node === undefined) return undefined;
  }
  return node;
}

/** Follows `$ref`s of OpenAPI objects (responses, parameters, headers) to the object itself. */
function deref(value: unknown): Json {
  let node = value;
  for (let i = 0; isObject(node) && typeof node.$ref === 'string' && i < 10; i++) node = atPointer(node.$ref);
  if (!isObject(node)) throw new Error(`unresolvable: ${JSON.stringify(value)}`);
  return node;
}

/** Every `$ref` string of `value`, with where it sits. */
function refsOf(value: unknown, at = '#', out: [string, string][] = []): [string, string][] {
  if (Array.isArray(value)) value.forEach((item, i) => refsOf(item, `${at}/${i}`, out));
  else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') out.push([at, item]);
      else refsOf(item, `${at}/${key}`, out);
    }
  }
  return out;
}

/** A copy of a schema taken out of the document whose local references point into the document (added to Ajv as DOC_ID). */
function anchored(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(anchored);
  if (!isObject(schema)) return schema;
  return Object.fromEntries(Object.entries(schema).map(([key, item]) => [key, key === '$ref' && typeof item === 'string' && item.startsWith('#') ? `${DOC_ID}${item}` : anchored(item)]));
}

const operations = (): [string, string, Json][] =>
  Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]): [string, string, Json] => [path, method, op as Json]),
  );

const operation = (path: string, method = 'get'): Json => {
  const item = (doc.paths as Json)[path];
  if (!isObject(item) || !isObject(item[method])) throw new Error(`${method.toUpperCase()} ${path} is not in the document`);
  return item[method] as Json;
};

const validators = new Map<string, ValidateFunction>();

/**
 * Checks a real response against the document: its status is documented for the operation, documented
 * required headers are present, and its body validates against the schema of its media type (JSON ones).
 */
function expectDocumented(res: Response, path: string, method = 'get', options: { binary?: boolean } = {}): Json {
  const responses = operation(path, method).responses as Json;
  const documented = responses[String(res.status)];
  if (documented === undefined) throw new Error(`${method.toUpperCase()} ${path} answered ${res.status}, which the document does not list (${Object.keys(responses).join(', ')})`);
  const response = deref(documented);
  for (const [name, header] of Object.entries((response.headers as Json | undefined) ?? {})) {
    if (deref(header).required === true && res.headers[name.toLowerCase()] === undefined) {
      throw new Error(`${path} ${res.status}: documented header ${name} is missing`);
    }
  }
  const content = response.content as Json | undefined;
  if (options.binary) {
    expect(Object.keys(content ?? {})).toContain(String(res.headers['content-type']).split(';')[0]);
    return response;
  }
  if (content === undefined || res.status === 304 || res.text === '' || res.text === undefined) {
    expect(res.text ?? '').toBe('');
    return response;
  }
  const mediaType = String(res.headers['content-type']).split(';')[0]!.trim();
  const entry = content[mediaType];
  if (!isObject(entry)) throw new Error(`${path} ${res.status}: media type ${mediaType} is not documented (${Object.keys(content).join(', ')})`);
  if (/json/.test(mediaType)) {
    const key = `${path} ${method} ${res.status} ${mediaType}`;
    let validate = validators.get(key);
    if (validate === undefined) {
      validate = ajv.compile(anchored(entry.schema) as object);
      validators.set(key, validate);
    }
    const body = JSON.parse(res.text) as unknown;
    if (!validate(body)) throw new Error(`${path} ${res.status} (${mediaType}) does not validate: ${JSON.stringify(validate.errors?.slice(0, 5), null, 1)}`);
  }
  return response;
}

const get = (path: string, accept = 'application/ld+json') => request(demo.app).get(path).set('Accept', accept);

beforeAll(async () => {
  demo = await startDemoApp({}, { sparql: true });
  objects = sourceObjects(demo.data);
  const res = await request(demo.app).get('/openapi.json');
  expect(res.status).toBe(200);
  doc = JSON.parse(res.text) as Json;
  ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  ajv.addSchema(doc, DOC_ID);
}, 180_000);
afterAll(async () => demo?.close());

describe('GET /openapi.json', () => {
  it('is JSON with validators, cacheable, and answers 304 to its ETag', async () => {
    const res = await request(demo.app).get('/openapi.json');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers.etag).toBeDefined();
    expect(res.headers.vary).toMatch(/Accept/);
    const again = await request(demo.app).get('/openapi.json').set('If-None-Match', res.headers.etag as string);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const oai = await request(demo.app).get('/openapi.json').set('Accept', 'application/vnd.oai.openapi+json');
    expect(oai.headers['content-type']).toMatch(/^application\/vnd\.oai\.openapi\+json/);
    expect(JSON.parse(oai.text)).toEqual(doc);
  });

  it('is not rate-limited, and served before the store is ready', async () => {
    const limited = createApp({ ...demo.ctx, config: { ...demo.ctx.config, rateLimitPerMinute: 1 }, store: new ReadinessOnlyStore(false) });
    for (let i = 0; i < 3; i++) expect((await request(limited).get('/openapi.json')).status).toBe(200);
  });
});

describe('The document has the shape of OpenAPI 3.1', () => {
  it('names version 3.1.x, a title, a version and this deployment as server', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    const info = doc.info as Json;
    expect(typeof info.title).toBe('string');
    expect(typeof info.version).toBe('string');
    expect(doc.servers).toEqual([expect.objectContaining({ url: TEST_BASE_URL })]);
  });

  it('gives every operation responses, each with a description; operation ids are unique', () => {
    const ids = new Set<string>();
    expect(operations().length).toBeGreaterThan(15);
    for (const [path, method, op] of operations()) {
      expect(path.startsWith('/')).toBe(true);
      const responses = op.responses as Json;
      expect(Object.keys(responses).length).toBeGreaterThan(0);
      for (const [status, response] of Object.entries(responses)) {
        expect(status).toMatch(/^[1-5]\d\d$/);
        if (typeof deref(response).description !== 'string') throw new Error(`${method} ${path} ${status}: no description`);
        for (const mediaType of Object.keys((deref(response).content as Json | undefined) ?? {})) expect(mediaType).toMatch(/^[a-z]+\/[a-z0-9.+-]+$/);
      }
      expect(typeof op.operationId).toBe('string');
      expect(ids.has(op.operationId as string)).toBe(false);
      ids.add(op.operationId as string);
    }
  });

  it('declares each path template variable as a required path parameter, and every parameter well-formed', () => {
    for (const [path, method, op] of operations()) {
      const parameters = ((op.parameters as unknown[] | undefined) ?? []).map(deref);
      const names = new Set<string>();
      for (const p of parameters) {
        expect(['query', 'header', 'path', 'cookie']).toContain(p.in);
        expect(typeof p.name).toBe('string');
        expect(typeof p.description).toBe('string');
        expect('schema' in p !== 'content' in p).toBe(true);
        const key = `${String(p.in)}:${String(p.name)}`;
        if (names.has(key)) throw new Error(`${method} ${path}: parameter ${key} twice`);
        names.add(key);
      }
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const inPath = parameters.filter((p) => p.in === 'path');
      expect(inPath.map((p) => p.name).sort()).toEqual(templated);
      for (const p of inPath) expect(p.required).toBe(true);
    }
  });

  it('resolves every $ref inside the document', () => {
    const refs = refsOf(doc);
    expect(refs.length).toBeGreaterThan(100);
    for (const [at, ref] of refs) if (atPointer(ref) === undefined) throw new Error(`${at}: $ref ${ref} does not resolve`);
  });

  it('has component schemas that are valid JSON Schema 2020-12 and compile', () => {
    const schemas = (doc.components as Json).schemas as Json;
    for (const name of Object.keys(schemas)) {
      expect(name).toMatch(/^[a-zA-Z0-9._-]+$/);
      if (!ajv.validateSchema(schemas[name] as object)) throw new Error(`${name}: ${ajv.errorsText()}`);
      expect(typeof ajv.getSchema(`${DOC_ID}#/components/schemas/${name}`)).toBe('function');
    }
  });
});

describe('The document follows the kinds’ declarations', () => {
  const parametersOf = (path: string): Json[] => ((operation(path).parameters as unknown[] | undefined) ?? []).map(deref);

  it('lists every record path of every kind (the agents’ ark alias too)', () => {
    const expected = KINDS.flatMap((kind) => kind.record.paths.map((p) => `/v2${p.replace(/\\/g, '').replace(/:pid$/, '{pid}')}`));
    expect(expected).toContain('/v2/id/ark:/29417/agent/{pid}');
    for (const path of expected) expect(Object.keys(doc.paths as Json)).toContain(path);
  });

  it.each(KINDS.map((kind) => [kind.collection, kind] as const))('lists every parameter of the %s collection, each described by hand', (collection, kind) => {
    const params = parametersOf(`/v2/id/${collection}`);
    const names = params.map((p) => p.name);
    const declared = [...kind.index.filters.flatMap((filter) => filter.params), ...(kind.index.reserved ?? [])];
    for (const name of ['page', 'itemsPerPage', 'fullRecord', 'q', 'sortBy', 'sortOrder', ...declared]) expect(names).toContain(name);
    const sortBy = params.find((p) => p.name === 'sortBy')!;
    expect((sortBy.schema as Json).enum).toEqual([...kind.index.sortKeys]);
    for (const p of params) {
      if (String(p.description).startsWith(UNDESCRIBED)) throw new Error(`${collection}: parameter ${String(p.name)} has no hand-written description (src/openapi/parameters.ts)`);
    }
  });

  it('lists the spec’s objects parameters and sort keys', () => {
    const names = parametersOf('/v2/id/objects').map((p) => p.name);
    // Spec, "Objects collection": every parameter of its table.
    for (const name of ['page', 'itemsPerPage', 'fullRecord', 'modifiedSince', 'q', 'hasImages', 'hasParts', 'isPartOf', 'onDisplay', 'language', 'type', 'material', 'color', 'cssColor', 'colors', 'hasColors', 'agent', 'date', 'dateFrom', 'dateTo', 'concept', 'conceptSearch', 'koepels', 'sortBy', 'sortOrder']) {
      expect(names).toContain(name);
    }
    const sortBy = parametersOf('/v2/id/objects').find((p) => p.name === 'sortBy')!.schema as Json;
    expect(sortBy.enum).toEqual(['objectNumber', 'modified', 'titleNL', 'titleFR', 'titleEN', 'dateBegin', 'dateEnd']);
    expect(sortBy.default).toBe('objectNumber');
  });

  it('lists the index endpoints with their parameters', () => {
    for (const name of ['colors', 'colors/dominant', 'types', 'materials', 'nationalities', 'roles', 'production']) expect(operation(`/v2/id/${name}`)).toBeDefined();
    // Spec, "Color index" and "Dominant objects".
    expect(parametersOf('/v2/id/colors').map((p) => p.name)).toEqual(['onDisplay', 'minCount']);
    expect(parametersOf('/v2/id/colors').find((p) => p.name === 'minCount')!.schema).toMatchObject({ type: 'integer', default: 1 });
    const dominant = parametersOf('/v2/id/colors/dominant');
    expect(dominant.map((p) => p.name)).toEqual(['color', 'cssColor', 'limit']);
    expect((dominant.find((p) => p.name === 'color')!.schema as Json).enum).toEqual(['red', 'orange', 'yellow', 'green', 'blue', 'purple', 'pink', 'brown', 'grey', 'black', 'white']);
    expect(dominant.find((p) => p.name === 'limit')!.schema).toMatchObject({ type: 'integer', default: 20, maximum: 100 });
    expect(Object.keys(operation('/v2/id/colors/dominant').responses as Json)).toContain('400');
    expect(parametersOf('/v2/id/production').map((p) => p.name).sort()).toEqual(['bucket', 'onDisplay', 'q', 'yearFrom', 'yearTo']);
    expect(parametersOf('/v2/id/production').find((p) => p.name === 'bucket')!.schema).toMatchObject({ type: 'integer', default: 10 });
    expect(parametersOf('/v2/id/materials').map((p) => p.name)).toEqual(['onDisplay']);
    expect(parametersOf('/v2/id/nationalities')).toEqual([]);
  });
});

describe('Real responses validate against the document', () => {
  const firstPublic = <T extends { public: boolean }>(records: T[]): T => records.find((r) => r.public)!;

  it('catalog: 200 on /v2/ and /v2/dcat, 304 to its ETag', async () => {
    for (const path of ['/v2/', '/v2/dcat']) expectDocumented(await get(path), path);
    const first = await get('/v2/');
    const again = await get('/v2/').set('If-None-Match', first.headers.etag as string);
    expect(again.status).toBe(304);
    expectDocumented(again, '/v2/');
  });

  it('records: 200 for a public record of every kind, by both agent paths', async () => {
    const object = objects.find((o) => o.public && o.healthy && o.state.kind === 'current')!;
    const agent = firstPublic(sourceRecords(demo.data, 'agents') as AgentRecord[]);
    const exhibition = firstPublic(sourceRecords(demo.data, 'exhibitions') as ExhibitionRecord[]);
    const concept = firstPublic(sourceRecords(demo.data, 'concepts') as ConceptRecord[]);
    const cases: [string, string][] = [
      [`/v2/id/object/${object.objectNumber}`, '/v2/id/object/{pid}'],
      [`/v2/id/agent/${agent.pid}`, '/v2/id/agent/{pid}'],
      [`/v2/id/ark:/29417/agent/${agent.pid}`, '/v2/id/ark:/29417/agent/{pid}'],
      [`/v2/id/exhibition/${exhibition.pid}`, '/v2/id/exhibition/{pid}'],
      [`/v2/id/concept/${concept.pid}`, '/v2/id/concept/{pid}'],
    ];
    for (const [url, path] of cases) {
      const res = await get(url);
      expect(res.status).toBe(200);
      expectDocumented(res, path);
    }
  });

  it('records: every public object of the demo validates as the document’s 200 of /v2/id/object/{pid}', async () => {
    for (const o of objects.filter((x) => x.public && x.healthy && x.state.kind === 'current')) {
      const res = await get(`/v2/id/object/${o.objectNumber}`);
      expect(res.status).toBe(200);
      expectDocumented(res, '/v2/id/object/{pid}');
    }
  }, 120_000);

  it('records: the other representations are documented media types', async () => {
    const object = objects.find((o) => o.public && o.healthy && o.state.kind === 'current')!;
    for (const accept of ['text/turtle', 'application/n-triples', 'application/n-quads', 'application/rdf+xml']) {
      expectDocumented(await get(`/v2/id/object/${object.objectNumber}`, accept), '/v2/id/object/{pid}');
    }
  });

  it('objects: 301 for every redirected object, 410 for every removed one (spec, "Special object responses")', async () => {
    const redirected = objects.filter((o) => ['merged', 'renumbered', 'withdrawn'].includes(o.state.kind));
    const removed = objects.filter((o) => o.state.kind === 'removed');
    expect(redirected.length).toBeGreaterThan(0);
    expect(removed.length).toBeGreaterThan(0);
    for (const o of redirected) {
      const res = await get(`/v2/id/object/${o.objectNumber}`);
      expect(res.status).toBe(301);
      expect(res.headers.location).toBe(`${TEST_BASE_URL}/v2/id/object/${(o.state as { into: string }).into}`);
      expectDocumented(res, '/v2/id/object/{pid}');
    }
    for (const o of removed) {
      const res = await get(`/v2/id/object/${o.objectNumber}`);
      expect(res.status).toBe(410);
      expectDocumented(res, '/v2/id/object/{pid}');
    }
  });

  it('records: 304, 400 and 404', async () => {
    const object = objects.find((o) => o.public && o.healthy && o.state.kind === 'current')!;
    const first = await get(`/v2/id/object/${object.objectNumber}`);
    const notModified = await get(`/v2/id/object/${object.objectNumber}`).set('If-None-Match', first.headers.etag as string);
    expect(notModified.status).toBe(304);
    expectDocumented(notModified, '/v2/id/object/{pid}');
    const cases: [string, string, number][] = [
      ['/v2/id/object/0000-UNKNOWN', '/v2/id/object/{pid}', 404],
      ['/v2/id/object/a%20b', '/v2/id/object/{pid}', 400],
      [`/v2/id/object/${object.objectNumber}?colors=true`, '/v2/id/object/{pid}', 200],
      [`/v2/id/object/${object.objectNumber}?colors=maybe`, '/v2/id/object/{pid}', 400],
      ['/v2/id/agent/NO-SUCH-AGENT', '/v2/id/agent/{pid}', 404],
      ['/v2/id/ark:/29417/agent/NO-SUCH-AGENT', '/v2/id/ark:/29417/agent/{pid}', 404],
      ['/v2/id/exhibition/TE_1800-999', '/v2/id/exhibition/{pid}', 404],
      // One pid rule for every kind: off the TE_ shape but a pid is 404, not a pid at all is 400.
      ['/v2/id/exhibition/not-an-exhibition', '/v2/id/exhibition/{pid}', 404],
      ['/v2/id/exhibition/not%20an%20exhibition', '/v2/id/exhibition/{pid}', 400],
      ['/v2/id/concept/000000', '/v2/id/concept/{pid}', 404],
    ];
    for (const [url, path, status] of cases) {
      const res = await get(url);
      expect([url, res.status]).toEqual([url, status]);
      expectDocumented(res, path);
    }
  });

  it.each(KINDS.map((kind) => [kind.collection] as const))('the %s collection: stubs, full records, a later page, 304 and 400', async (collection) => {
    const path = `/v2/id/${collection}`;
    const stubs = await get(`${path}?itemsPerPage=3`);
    expect(stubs.status).toBe(200);
    expectDocumented(stubs, path);
    const members = (JSON.parse(stubs.text) as Json)['hydra:member'] as Json[];
    expect(members).toHaveLength(3);
    // A stub is not a full record: the schema the page matched is the stub page's.
    expect(members.every((m) => m['prov:generatedAtTime'] === undefined)).toBe(true);
    const full = await get(`${path}?itemsPerPage=2&page=2&fullRecord=true`);
    expect(full.status).toBe(200);
    expectDocumented(full, path);
    expect(((JSON.parse(full.text) as Json)['hydra:member'] as Json[]).every((m) => m['prov:generatedAtTime'] !== undefined)).toBe(true);
    const filtered = await get(`${path}?modifiedSince=2000-01-01&language=NLD&sortBy=modified&sortOrder=desc`);
    expectDocumented(filtered, path);
    expectDocumented(await get(`${path}?itemsPerPage=2`, 'text/turtle'), path);
    if (stubs.headers.etag !== undefined) {
      const notModified = await get(`${path}?itemsPerPage=3`).set('If-None-Match', stubs.headers.etag as string);
      expect(notModified.status).toBe(304);
      expectDocumented(notModified, path);
    }
    for (const bad of ['modifiedSince=2026-02-30', 'sortBy=nonsense', 'page=0', 'language=XX']) {
      const res = await get(`${path}?${bad}`);
      expect([bad, res.status]).toEqual([bad, 400]);
      expectDocumented(res, path);
    }
  });

  it('the objects collection with every kind of filter', async () => {
    const queries = [
      'q=vaas&hasImages=true',
      'onDisplay=false&koepels=exclude&sortBy=titleNL',
      'hasParts=1',
      'isPartOf=true&fullRecord=true&itemsPerPage=5',
      'type=vaas,stoel&material=glas',
      'date=1900/1950&dateFrom=1920&dateTo=1960&sortBy=dateBegin',
      'concept=530000049',
      'conceptSearch=stoel',
      'agent=DMG-A-00001',
    ];
    for (const query of queries) expectDocumented(await get(`/v2/id/objects?${query}`), '/v2/id/objects');
    // The colour parameters (spec, "Objects collection"): filters, and colour data in full records.
    for (const query of ['color=black,white&hasColors=true', 'hasColors=false', 'fullRecord=true&colors=true&hasColors=true&itemsPerPage=3']) {
      const res = await get(`/v2/id/objects?${query}`);
      expect([query, res.status]).toEqual([query, 200]);
      expectDocumented(res, '/v2/id/objects');
    }
    for (const bad of ['color=magenta', 'colors=true', 'date=1950-1960', 'koepels=maybe', 'hasImages=yes']) {
      const res = await get(`/v2/id/objects?${bad}`);
      expect([bad, res.status]).toEqual([bad, 400]);
      expectDocumented(res, '/v2/id/objects');
    }
  });

  it('the agents collection with its filters', async () => {
    for (const query of ['role=designer&nationality=België', 'hasBio=true&language=ENG', 'type=organisation&sortBy=name', 'q=designer']) {
      expectDocumented(await get(`/v2/id/agents?${encodeURI(query)}`), '/v2/id/agents');
    }
    expectDocumented(await get('/v2/id/agents?role=painter'), '/v2/id/agents');
  });

  it('the index endpoints: 200 with the spec’s defaults, 304, 400', async () => {
    for (const name of ['types', 'materials', 'nationalities', 'roles']) {
      const res = await get(`/v2/id/${name}`);
      expect([name, res.status]).toEqual([name, 200]);
      expectDocumented(res, `/v2/id/${name}`);
      const body = JSON.parse(res.text) as Json;
      expect(body['hydra:totalItems']).toBe((body['hydra:member'] as unknown[]).length);
      const again = await get(`/v2/id/${name}`).set('If-None-Match', res.headers.etag as string);
      expect(again.status).toBe(304);
      expectDocumented(again, `/v2/id/${name}`);
    }
    for (const name of ['types', 'materials']) {
      expectDocumented(await get(`/v2/id/${name}?onDisplay=true`), `/v2/id/${name}`);
      const bad = await get(`/v2/id/${name}?onDisplay=perhaps`);
      expect(bad.status).toBe(400);
      expectDocumented(bad, `/v2/id/${name}`);
    }
    const production = await get('/v2/id/production');
    expect(production.status).toBe(200);
    expectDocumented(production, '/v2/id/production');
    // Spec, "Production density" and Limits: bucket 10, yearFrom 1600, yearTo 2030 by default.
    expect(JSON.parse(production.text)).toMatchObject({ bucket_size: 10, year_from: 1600, year_to: 2030 });
    const clamped = await get('/v2/id/production?bucket=500&yearFrom=1850&yearTo=3000&onDisplay=true&q=vaas');
    expectDocumented(clamped, '/v2/id/production');
    expect(JSON.parse(clamped.text)).toMatchObject({ bucket_size: 100, year_from: 1850, year_to: 2100 });
    for (const bad of ['bucket=ten', 'yearFrom=1900&yearTo=1800', 'yearTo=1.5', 'onDisplay=perhaps']) {
      const res = await get(`/v2/id/production?${bad}`);
      expect([bad, res.status]).toEqual([bad, 400]);
      expectDocumented(res, '/v2/id/production');
    }
  });

  it('the colour index: 200 with the spec’s defaults and with its parameters, 304, 400', async () => {
    const res = await get('/v2/id/colors');
    expect(res.status).toBe(200);
    expectDocumented(res, '/v2/id/colors');
    const body = JSON.parse(res.text) as { base_colors: Json[]; css_colors: Json[] };
    expect(body.base_colors.length).toBeGreaterThan(0);
    expect(body.css_colors.length).toBeGreaterThan(0);
    // minCount defaults to 1: every listed colour is on at least one object.
    expect([...body.base_colors, ...body.css_colors].every((c) => (c.object_count as number) >= 1)).toBe(true);
    const again = await get('/v2/id/colors').set('If-None-Match', res.headers.etag as string);
    expect(again.status).toBe(304);
    expectDocumented(again, '/v2/id/colors');
    for (const query of ['onDisplay=true', 'onDisplay=false&minCount=3', 'minCount=0']) expectDocumented(await get(`/v2/id/colors?${query}`), '/v2/id/colors');
    // Its filter links are documented requests of the objects collection (cssColor among them).
    for (const { filter } of [...body.base_colors.slice(0, 3), ...body.css_colors.slice(0, 3)]) {
      const objects = await get(String(filter).slice(TEST_BASE_URL.length));
      expect([filter, objects.status]).toEqual([filter, 200]);
      expectDocumented(objects, '/v2/id/objects');
    }
    for (const bad of ['minCount=-1', 'minCount=x', 'onDisplay=perhaps']) {
      const refused = await get(`/v2/id/colors?${bad}`);
      expect([bad, refused.status]).toEqual([bad, 400]);
      expectDocumented(refused, '/v2/id/colors');
    }
  });

  it('the dominant objects: 200 for every base colour and for tones (the index’s `dominant` links), 304, 400', async () => {
    const index = JSON.parse((await get('/v2/id/colors')).text) as { base_colors: { dominant: string }[]; css_colors: { dominant: string }[] };
    const links = [...index.base_colors, ...index.css_colors.slice(0, 5)].map((c) => c.dominant.slice(TEST_BASE_URL.length));
    for (const url of [...links, '/v2/id/colors/dominant?color=black', '/v2/id/colors/dominant?color=WHITE&limit=500', '/v2/id/colors/dominant?cssColor=no%20such%20tone']) {
      const res = await get(url);
      expect([url, res.status]).toEqual([url, 200]);
      expectDocumented(res, '/v2/id/colors/dominant');
      // Spec, "Dominant objects": 20 by default, at most 100, by dominance descending.
      const members = (JSON.parse(res.text) as Json)['hydra:member'] as { dominance_pct: number }[];
      expect(members.length).toBeLessThanOrEqual(url.includes('limit=') ? 100 : 20);
      for (let i = 1; i < members.length; i++) expect(members[i]!.dominance_pct).toBeLessThanOrEqual(members[i - 1]!.dominance_pct);
    }
    const first = await get('/v2/id/colors/dominant?color=black');
    const again = await get('/v2/id/colors/dominant?color=black').set('If-None-Match', first.headers.etag as string);
    expect(again.status).toBe(304);
    expectDocumented(again, '/v2/id/colors/dominant');
    for (const bad of ['', 'color=black&cssColor=Eerie%20Black', 'color=magenta', 'color=black&limit=0', 'color=black&limit=ten']) {
      const refused = await get(`/v2/id/colors/dominant?${bad}`);
      expect([bad, refused.status]).toEqual([bad, 400]);
      expectDocumented(refused, '/v2/id/colors/dominant');
    }
  });

  it('dumps: 200, 304 and 404', async () => {
    const res = await request(demo.app)
      .get('/v2/dumps/collection.nq.gz')
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    expectDocumented(res, '/v2/dumps/{name}', 'get', { binary: true });
    expect((res.body as Buffer).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    const again = await request(demo.app).get('/v2/dumps/collection.nq.gz').set('If-None-Match', res.headers.etag as string);
    expect(again.status).toBe(304);
    expectDocumented(again, '/v2/dumps/{name}');
    const missing = await get('/v2/dumps/nothing.nq.gz');
    expect(missing.status).toBe(404);
    expectDocumented(missing, '/v2/dumps/{name}');
  });

  it('sparql: 200 for a query by GET and POST, 400 for a broken one, 406 when no format fits', async () => {
    const ask = await request(demo.app).get('/sparql').query({ query: 'ASK { ?s ?p ?o }' }).set('Accept', 'application/sparql-results+json');
    expect(ask.status).toBe(200);
    expectDocumented(ask, '/sparql');
    const post = await request(demo.app).post('/sparql').type('form').send({ query: 'SELECT * WHERE { ?s ?p ?o } LIMIT 1' });
    expect(post.status).toBe(200);
    expectDocumented(post, '/sparql', 'post');
    const broken = await request(demo.app).get('/sparql').query({ query: 'SELECT WHERE {' });
    expect(broken.status).toBe(400);
    expectDocumented(broken, '/sparql');
    const refused = await request(demo.app).get('/sparql').query({ query: 'ASK { ?s ?p ?o }' }).set('Accept', 'image/png');
    expect(refused.status).toBe(406);
    expectDocumented(refused, '/sparql');
  });

  it('429 above the rate limit, on every v2 path of the document', async () => {
    const ctx: AppContext = { ...demo.ctx, config: { ...demo.ctx.config, rateLimitPerMinute: 1 } };
    for (const [path, method] of operations().filter(([p]) => p.startsWith('/v2/'))) {
      const limited = createApp(ctx);
      const url = path.replace('{pid}', 'x').replace('{name}', 'collection.nq.gz');
      await request(limited).get(url);
      const res = await request(limited).get(url);
      expect([url, res.status]).toEqual([url, 429]);
      expectDocumented(res, path, method);
    }
  });

  it('503 while the store is not ready (the catalog still answers), 500 when the store fails', async () => {
    const notReady = createApp({ ...demo.ctx, store: new ReadinessOnlyStore(false) });
    for (const [path, method] of operations().filter(([p]) => p.startsWith('/v2/'))) {
      const url = path.replace('{pid}', 'x1').replace('{name}', 'collection.nq.gz');
      const res = await request(notReady).get(url);
      expect([url, res.status]).toEqual([url, path === '/v2/' || path === '/v2/dcat' ? 200 : 503]);
      expectDocumented(res, path, method);
    }
    const failing = createApp({ ...demo.ctx, store: new ReadinessOnlyStore(true) });
    for (const [url, path] of [
      ['/v2/id/object/1482', '/v2/id/object/{pid}'],
      ['/v2/id/concept/530000049', '/v2/id/concept/{pid}'],
    ]) {
      const res = await request(failing).get(url!);
      expect(res.status).toBe(500);
      expectDocumented(res, path!);
    }
  });

  it('the IIIF and deprecated v1 paths answer 200 for their example values, as documented (v1 marked deprecated)', async () => {
    const others = operations().filter(([p]) => p.startsWith('/iiif/') || p.startsWith('/v1/'));
    expect(others.length).toBeGreaterThan(10);
    for (const [path, method, op] of others) {
      if (path.startsWith('/v1/')) expect([path, op.deprecated]).toEqual([path, true]);
      let url = path;
      for (const p of ((op.parameters as unknown[] | undefined) ?? []).map(deref).filter((p) => p.in === 'path')) url = url.replace(`{${String(p.name)}}`, encodeURIComponent(String(p.example)));
      const res = await request(demo.app).get(url).buffer(true);
      expect([url, res.status]).toEqual([url, 200]);
      expectDocumented(res, path, method, { binary: !/json/.test(String(res.headers['content-type'])) });
    }
  });

  it('every documented v2 path answers with a documented status for its example values', async () => {
    // Paths that need a query to answer 200 (spec, "Dominant objects": exactly one of color and cssColor).
    const queries: Record<string, string> = { '/v2/id/colors/dominant': '?color=black' };
    for (const [path, , op] of operations().filter(([p]) => p.startsWith('/v2/'))) {
      const params = ((op.parameters as unknown[] | undefined) ?? []).map(deref).filter((p) => p.in === 'path');
      let url = path;
      for (const p of params) url = url.replace(`{${String(p.name)}}`, encodeURIComponent(String(p.example)));
      url += queries[path] ?? '';
      const res = await request(demo.app).get(url).buffer(true).parse((response, done) => {
        response.on('data', () => undefined);
        response.on('end', () => done(null, undefined));
      });
      expect([url, res.status]).toEqual([url, 200]);
      expect(Object.keys(op.responses as Json)).toContain(String(res.status));
    }
  });
});
