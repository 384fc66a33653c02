/**
 * The restricted v1 paths (spec, Authentication; Deprecated v1 interface): API keys on /v1/id/private-objects
 * and /v1/dump/{type} (401 without, 403 with a wrong one, no-store, never echoed or logged), and the rule that
 * a private object is served by the private stream only: not by v2, not by v1's public paths, not by /sparql.
 */
import { inspect } from 'node:util';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { BASE_COLORS } from '../../src/colors/base-colors.js';
import { memoryLogger } from '../helpers/http-context.js';
import { byCodePoint, expectValid, json, OTHER_KEY, publicRecords, sparqlSelect, useV1Demo, V1_KEY, v1Schemas, walk } from './v1-support.js';

const v1 = useV1Demo({ V1_API_KEYS: `${V1_KEY},${OTHER_KEY}` }, { sparql: true });
const schema = v1Schemas();
const BASE = 'http://localhost:3000';
const MISSING = 'Authentication key is missing or invalid. This stream is only available via authentication.';
const { get } = v1;
const pageOf = (member: unknown): string => String((member as Record<string, unknown>)['foaf:page']);
const objectPage = (number: string): string => `${BASE}/v1/id/object/${number}`;

describe('Authentication: the API key of the restricted v1 paths', () => {
  it.each(['/v1/id/private-objects', '/v1/id/private-objects/', '/v1/dump/objects', '/v1/dump/agents'])('answers 401 with the reference body to %s without a key', async (path) => {
    for (const query of ['', '?apiKey=', '?pageNumber=1']) {
      const res = await get(`${path}${query}`);
      expect(res.status).toBe(401);
      expect(json(res)).toEqual({ error: MISSING });
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers.deprecation).toBe('true');
    }
  });

  it('answers 403 to a wrong key, and 400 to a repeated one, with no-store', async () => {
    for (const key of ['wrong', V1_KEY.toUpperCase(), `${V1_KEY}x`, V1_KEY.slice(0, -1), ` ${V1_KEY}`]) {
      const res = await get(`/v1/id/private-objects?apiKey=${encodeURIComponent(key)}`);
      expect(res.status).toBe(403);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.text).not.toContain(key.trim());
    }
    const repeated = await get(`/v1/id/private-objects?apiKey=${V1_KEY}&apiKey=${V1_KEY}`);
    expect(repeated.status).toBe(400);
    expect(repeated.headers['cache-control']).toBe('no-store');
  });

  it('answers 200 with no-store to every configured key, and never writes the key back', async () => {
    for (const key of [V1_KEY, OTHER_KEY]) {
      const res = await get(`/v1/id/private-objects?apiKey=${key}&itemsPerPage=3&pageNumber=2`);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.text).not.toContain(key);
      expect(JSON.stringify(res.headers)).not.toContain(key);
      expect((json(res) as Record<string, Record<string, string>>)['hydra:view']!['hydra:next']).toBe(`${BASE}/v1/id/private-objects?pageNumber=3&itemsPerPage=3`);
    }
  });

  it('keeps no-store on every other answer of a keyed path (a bad parameter, an unknown dump)', async () => {
    const bad = await get(`/v1/id/private-objects?apiKey=${V1_KEY}&pageNumber=zero`);
    expect(bad.status).toBe(400);
    expect(bad.headers['cache-control']).toBe('no-store');
    const unknown = await get(`/v1/dump/people?apiKey=${V1_KEY}`);
    expect(unknown.status).toBe(422);
    expect(unknown.headers['cache-control']).toBe('no-store');
  });

  it('keeps the configured keys as digests only: the configuration prints a placeholder wherever it is written', () => {
    const { v1ApiKeys } = v1.demo.ctx.config;
    expect(v1ApiKeys.size).toBe(2);
    for (const text of [JSON.stringify(v1.demo.ctx.config), String(v1ApiKeys), inspect(v1ApiKeys)]) {
      expect(text).not.toContain(V1_KEY);
      expect(text).not.toContain(OTHER_KEY);
    }
  });

  it('writes no key to any log line, at any level, whatever the answer', async () => {
    const { logger, lines } = memoryLogger('trace');
    const app = createApp({ ...v1.demo.ctx, logger });
    const keys = [V1_KEY, OTHER_KEY, 'wrong-key-e3b0c4'];
    for (const key of keys) {
      await request(app).get(`/v1/id/private-objects?apiKey=${key}&itemsPerPage=2`);
      await request(app).get(`/v1/id/private-objects?itemsPerPage=zz&apiKey=${key}`);
      await request(app).get(`/v1/dump/concepts?apiKey=${key}`);
      await request(app).get(`/v1/dump/nope?APIKEY=${key}`);
      await request(app).get(`/v1/id/object/0001?apiKey=${key}`);
    }
    expect(lines.length).toBeGreaterThanOrEqual(15);
    const text = JSON.stringify(lines);
    for (const key of keys) expect(text).not.toContain(key);
    expect(lines.filter((line) => String(line.path).startsWith('/v1/id/private-objects') && String(line.query).includes('apiKey=[REDACTED]'))).not.toHaveLength(0);
  });
});

describe('Private objects are served by /v1/id/private-objects only', () => {
  it('lists every healthy, current object, public and private, once in object-number order, as full v1 records', async () => {
    expect(v1.objects.privates.length).toBeGreaterThan(0);
    const { members, pages } = await walk(v1.demo.app, `/v1/id/private-objects?itemsPerPage=100&apiKey=${V1_KEY}`, `&apiKey=${V1_KEY}`);
    const expected = [...v1.objects.listed, ...v1.objects.privates].map((o) => o.objectNumber).sort(byCodePoint);
    expect(members.map(pageOf)).toEqual(expected.map(objectPage));
    expect(pages[0]!['hydra:totalItems']).toBe(expected.length);
    const privatePages = new Set(v1.objects.privates.map((o) => objectPage(o.objectNumber)));
    for (const member of members.filter((m) => privatePages.has(pageOf(m)))) expectValid(schema('object'), member);
    for (const page of pages) expectValid(schema('collection'), page);
  });

  it('never serves a private object from v2, even after the private stream framed it', async () => {
    await get(`/v1/id/private-objects?itemsPerPage=100&apiKey=${V1_KEY}`);
    for (const o of v1.objects.privates) {
      expect((await get(`/v2/id/object/${o.objectNumber}`)).status).toBe(404);
      const search = await get(`/v2/id/objects?q=${encodeURIComponent(o.objectNumber)}&itemsPerPage=100`);
      expect(search.text).not.toContain(`/v2/id/object/${o.objectNumber}"`);
    }
    const v2 = await get('/v2/id/objects?itemsPerPage=1');
    expect((json(v2) as Record<string, number>)['hydra:totalItems']).toBe(v1.objects.listed.length);
  });

  it('never serves a private object from a public v1 path', async () => {
    const privatePages = new Set(v1.objects.privates.map((o) => objectPage(o.objectNumber)));
    for (const o of v1.objects.privates) {
      const res = await get(`/v1/id/object/${o.objectNumber}`);
      expect(res.status).toBe(422);
      expect((await get(`/v1/id/object/${o.objectNumber}?easy=true`)).status).toBe(422);
    }
    const listings = ['/v1/id/objects?itemsPerPage=100', '/v1/pattern-api?collection=tegels&itemsPerPage=100', '/v1/pattern-api?collection=panelen&itemsPerPage=100'];
    for (const color of BASE_COLORS) listings.push(`/v1/color-api/${color}?itemsPerPage=100`);
    for (const listing of listings) {
      const { members } = await walk(v1.demo.app, listing);
      for (const member of members) {
        const page = (member as Record<string, unknown>)['foaf:page'];
        if (page !== undefined) expect(privatePages.has(String(page))).toBe(false);
      }
    }
  });

  it('never serves a private object from /sparql: no graph, subject or object names one', async () => {
    const values = v1.objects.privates.map((o) => `<${BASE}/v2/id/object/${o.objectNumber}>`).join(' ');
    const rows = await sparqlSelect(
      v1.demo.app,
      `SELECT (COUNT(*) AS ?n) WHERE { VALUES ?x { ${values} } { GRAPH ?x { ?s ?p ?o } } UNION { GRAPH ?g { ?x ?p ?o } } UNION { GRAPH ?g { ?s ?p ?x } } }`,
    );
    expect(rows).toEqual([{ n: '0' }]);
    const control = await sparqlSelect(v1.demo.app, `SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${BASE}/v2/id/object/${v1.objects.listed[0]!.objectNumber}> { ?s ?p ?o } }`);
    expect(Number(control[0]!.n)).toBeGreaterThan(0);
  });
});

describe('Deprecated v1 interface: /v1/dump/{type}', () => {
  const dump = async (type: string): Promise<{ records: Record<string, unknown>[]; headers: Record<string, string> }> => {
    const res = await get(`/v1/dump/${type}?apiKey=${V1_KEY}`).buffer(true).parse((response, done) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => done(null, text));
    });
    expect(res.status).toBe(200);
    return { records: JSON.parse(res.body as string) as Record<string, unknown>[], headers: res.headers as Record<string, string> };
  };

  it.each(['agents', 'exhibitions', 'concepts'] as const)('streams every public %s as a JSON array of full v1 records', async (type) => {
    const { records, headers } = await dump(type);
    expect(headers['content-disposition']).toBe(`attachment; filename=dmg-api-${type}-dump.json`);
    expect(headers['cache-control']).toBe('no-store');
    const kind = type.slice(0, -1);
    expect(records.map(pageOf)).toEqual(publicRecords(v1.demo.data, type).map((r) => `${BASE}/v1/id/${kind}/${r.pid}`).sort(byCodePoint));
    for (const record of records) expectValid(schema(kind), record);
  });

  it('streams every listed object and no private one', async () => {
    const { records } = await dump('objects');
    expect(records.map(pageOf)).toEqual(v1.objects.listed.map((o) => objectPage(o.objectNumber)).sort(byCodePoint));
    for (const record of records.slice(0, 100)) expectValid(schema('object'), record);
  });

  it('answers 422 to a type with no dump', async () => {
    const res = await get(`/v1/dump/persons?apiKey=${V1_KEY}`);
    expect(res.status).toBe(422);
    expect(json(res)).toEqual({ error: 'There is no data dump for this type. Use objects, agents, exhibitions or concepts.' });
  });
});
