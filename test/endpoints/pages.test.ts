/**
 * Pages for people (issue 25, docs/html.md): a browser's Accept gets an HTML page on every record, collection
 * and index URL of the demo, with the status the JSON-LD answer has (200, 301, 404, 410); every other client
 * (`application/ld+json`, `*∕*`, no Accept) gets the same JSON-LD bytes as before, whichever of them it sends.
 * Expected titles, makers and exhibitions come from the demo's source export; facet counts are checked against
 * the totals of the narrowed JSON-LD queries.
 */
import request from 'supertest';
import { sourceObjects, sourceRecords, startDemoApp, type DemoApp } from '../helpers/demo.js';
import { coveringSample, everyRecord } from '../helpers/sample.js';
import type { AgentRecord, ExhibitionRecord, ObjectRecord } from '../../src/harvest/schema.js';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const JSON_LD = 'application/ld+json; charset=utf-8';
const HTML = 'text/html; charset=utf-8';

let demo: DemoApp;

beforeAll(async () => {
  demo = await startDemoApp();
}, 600_000);
afterAll(() => demo.close());

const get = (path: string, headers: Record<string, string> = {}): request.Test => {
  const req = request(demo.app).get(path).redirects(0);
  for (const [name, value] of Object.entries(headers)) req.set(name, value);
  return req;
};

/**
 * The record paths of a sample of the demo's source export that shows every feature of its records, public or
 * not, current or not (test/helpers/sample.ts; `TEST_EVERY_RECORD=1` asks every record).
 */
function recordPaths(): string[] {
  const objects = coveringSample(sourceObjects(demo.data)).map((o) => `/v2/id/object/${o.objectNumber}`);
  const others = (['agents', 'exhibitions', 'concepts'] as const).flatMap((kind) =>
    coveringSample(sourceRecords(demo.data, kind) as { pid: string }[]).map((r) => `/v2/id/${kind.slice(0, -1)}/${r.pid}`),
  );
  return [...objects, ...others];
}

const decode = (html: string): string => html.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

describe('a browser gets a page, every other client the JSON-LD it always got', () => {
  it('on the records of the demo, with the status of the JSON-LD answer', async () => {
    const paths = recordPaths();
    expect(paths.length).toBeGreaterThan(everyRecord() ? 1000 : 200);
    const statuses = new Map<number, number>();
    for (const [i, path] of paths.entries()) {
      const plain = await get(path);
      const page = await get(path, { Accept: BROWSER });
      expect([path, page.status]).toEqual([path, plain.status]);
      statuses.set(plain.status, (statuses.get(plain.status) ?? 0) + 1);
      expect([path, page.headers['content-type']]).toEqual([path, HTML]);
      expect(page.headers.vary).toMatch(/\bAccept\b/);
      if (plain.status === 301) expect(page.headers.location).toBe(plain.headers.location);
      if (plain.status !== 200) continue;
      // The same bytes for each non-browser client (on every tenth record: the choice depends on the Accept
      // header, not on the record; record-http.test.ts asks every kind), and the page's own tag.
      for (const accept of i % 10 === 0 ? ['application/ld+json', '*/*'] : []) {
        const other = await get(path, { Accept: accept });
        expect([path, accept, other.headers['content-type'], other.text === plain.text]).toEqual([path, accept, JSON_LD, true]);
      }
      expect(plain.headers['content-type']).toBe(JSON_LD);
      expect(page.headers.etag).not.toBe(plain.headers.etag);
      // The page names the record by its URI and links its JSON-LD.
      const iri = (JSON.parse(plain.text) as { '@id': string })['@id'];
      expect(page.text).toContain(`>${iri}</a>`);
      expect(page.text).toContain(`href="${path}?format=jsonld"`);
    }
    // The demo has records in each state the spec names.
    expect([...statuses.keys()].sort()).toEqual([200, 301, 404, 410]);
  }, 300_000);

  it('on every collection and index URL, and on the first and last page', async () => {
    const paths = ['/v2/id/objects', '/v2/id/agents', '/v2/id/exhibitions', '/v2/id/concepts', '/v2/id/objects?q=stoel&page=2'];
    for (const kind of ['objects', 'agents', 'exhibitions', 'concepts']) {
      const first = JSON.parse((await get(`/v2/id/${kind}`)).text) as { 'hydra:view': { 'hydra:last': string } };
      paths.push(new URL(first['hydra:view']['hydra:last']).pathname + new URL(first['hydra:view']['hydra:last']).search);
    }
    paths.push('/v2/id/types', '/v2/id/materials', '/v2/id/nationalities', '/v2/id/roles', '/v2/id/production', '/v2/id/colors', '/v2/id/materials?onDisplay=true');
    for (const path of paths) {
      const plain = await get(path);
      expect([path, plain.status, plain.headers['content-type']]).toEqual([path, 200, JSON_LD]);
      for (const accept of ['application/ld+json', '*/*']) expect([path, accept, (await get(path, { Accept: accept })).text === plain.text]).toEqual([path, accept, true]);
      const page = await get(path, { Accept: BROWSER });
      expect([path, page.status, page.headers['content-type']]).toEqual([path, 200, HTML]);
      expect(page.text).toMatch(/<h1>[^<]+<\/h1>/);
    }
  }, 120_000);
});

describe('the record page', () => {
  const served = (): ObjectRecord => {
    const object = sourceObjects(demo.data).find(
      (o) => o.public && o.healthy && o.state.kind === 'current' && o.titles.en !== undefined && o.titles.nl !== undefined && o.exhibitions.length > 0 && o.productions.length > 0,
    );
    if (!object) throw new Error('the demo has no public object with Dutch and English titles, an exhibition and a production');
    return object;
  };

  it('is titled in the page’s language, with the other titles beside it', async () => {
    const object = served();
    const en = await get(`/v2/id/object/${object.objectNumber}`, { Accept: BROWSER, 'Accept-Language': 'en-GB,en;q=0.9' });
    expect(decode(/<h1>([^<]*)<\/h1>/.exec(en.text)![1]!)).toBe(object.titles.en);
    expect(decode(en.text)).toContain(`<small class="lang">nl</small> ${object.titles.nl}`);
    expect(en.headers.vary).toMatch(/Accept-Language/);
    const nl = await get(`/v2/id/object/${object.objectNumber}`, { Accept: BROWSER });
    expect(decode(/<h1>([^<]*)<\/h1>/.exec(nl.text)![1]!)).toBe(object.titles.nl);
    expect(nl.headers.etag).not.toBe(en.headers.etag);
  });

  it('links the exhibitions and makers by their paths on this service', async () => {
    const object = served();
    const page = await get(`/v2/id/object/${object.objectNumber}`, { Accept: BROWSER });
    for (const pid of object.exhibitions) expect(page.text).toContain(`href="/v2/id/exhibition/${pid}"`);
    const publicAgents = new Set((sourceRecords(demo.data, 'agents') as { pid: string; public: boolean; healthy?: boolean }[]).filter((a) => a.public).map((a) => a.pid));
    const makers = object.productions.flatMap((p) => (p.agent !== undefined && publicAgents.has(p.agent) ? [p.agent] : []));
    for (const pid of makers) expect(page.text).toContain(`href="/v2/id/agent/${pid}"`);
  });

  it('shows each image by its thumbnail, with its attribution', async () => {
    const object = sourceObjects(demo.data).find((o) => o.public && o.healthy && o.state.kind === 'current' && o.images.length > 0)!;
    const page = decode((await get(`/v2/id/object/${object.objectNumber}`, { Accept: BROWSER })).text);
    expect(page).toContain('<section class="gallery"');
    expect(page).toContain(object.images[0]!.attribution);
  });

  it('shows each image once: in the gallery, and named where the record lists it', async () => {
    const withImages = sourceObjects(demo.data).filter((o) => o.public && o.healthy && o.state.kind === 'current' && o.images.length > 0).slice(0, 5);
    const exhibitions = (sourceRecords(demo.data, 'exhibitions') as { pid: string; public: boolean; poster?: unknown }[]).filter((e) => e.public && e.poster !== undefined).slice(0, 3);
    expect(exhibitions.length).toBeGreaterThan(0);
    const paths = [...withImages.map((o) => `/v2/id/object/${o.objectNumber}`), ...exhibitions.map((e) => `/v2/id/exhibition/${e.pid}`)];
    for (const path of paths) {
      // The record's own images; the cards of the records it lists (objects shown) show theirs.
      const page = (await get(path, { Accept: BROWSER })).text.replace(/<ul class="cards">.*?<\/ul>/gs, '');
      const sources = [...page.matchAll(/<img src="([^"]+)"/g)].map((m) => m[1]);
      expect([path, sources.length]).toEqual([path, new Set(sources).size]);
      expect([path, sources.length > 0]).toEqual([path, true]);
    }
  });

  it('names every representation in a Link header, whatever the format, and serves each at its ?format= URL', async () => {
    const object = served();
    const path = `/v2/id/object/${object.objectNumber}`;
    const variants: Record<string, string>[] = [{}, { Accept: 'text/turtle' }, { Accept: BROWSER }];
    for (const headers of variants) {
      const link = (await get(path, headers)).headers.link as string;
      for (const [format, type] of [
        ['jsonld', 'application/ld+json'],
        ['ttl', 'text/turtle'],
        ['nt', 'application/n-triples'],
        ['nq', 'application/n-quads'],
        ['rdf', 'application/rdf+xml'],
        ['html', 'text/html'],
      ]) {
        expect(link).toContain(`<${demo.ctx.iris.object(object.objectNumber)}?format=${format}>; rel="alternate"; type="${type}"`);
        const answer = await get(`${path}?format=${format}`, { Accept: BROWSER });
        expect([format, answer.status, answer.headers['content-type']]).toEqual([format, 200, `${type}; charset=utf-8`]);
      }
    }
    expect((await get(`${path}?format=jsonld`)).text).toBe((await get(path)).text);
    const bad = await get(`${path}?format=docx`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/Invalid format/);
  });

  it('escapes the record’s text', async () => {
    const page = await get('/v2/id/objects?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E', { Accept: BROWSER });
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<script>alert(1)</script>');
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

describe('errors and moved records for a browser', () => {
  it('are pages with the JSON message, and JSON for every other client', async () => {
    const missing = await get('/v2/id/object/NO-SUCH-1', { Accept: BROWSER });
    const json = await get('/v2/id/object/NO-SUCH-1');
    expect(missing.status).toBe(404);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(missing.text).toContain(`<p lang="en">${json.body.error as string}</p>`);
    const invalid = await get('/v2/id/object/%20bad', { Accept: BROWSER });
    expect([invalid.status, invalid.headers['content-type']]).toEqual([400, HTML]);
  });
});

describe('facets', () => {
  it.each([
    ['/v2/id/objects?q=stoel', ['Type', 'Material', 'Colour', 'Period (production or design)'], ['type', 'material', 'color', 'date']],
    ['/v2/id/objects?type=stoel', ['Type', 'Material', 'Colour', 'Period (production or design)'], ['type', 'material', 'color', 'date']],
    ['/v2/id/agents?role=designer', ['Nationality', 'Role'], ['nationality', 'role']],
  ])('on %s count what the narrowed query’s JSON-LD totals say, and their links narrow the query', async (path, headings, params) => {
    const page = decode((await get(path, { Accept: BROWSER, 'Accept-Language': 'en' })).text);
    for (const heading of headings) expect(page).toContain(`<h2>${heading}</h2>`);
    const collection = path.slice(0, path.indexOf('?'));
    const links = [...page.matchAll(/<li><a href="([^"]+)">([^<]*)<\/a> <span class="count">(\d+)<\/span><\/li>/g)];
    expect(links.length).toBeGreaterThan(3);
    const base = new URLSearchParams(path.slice(path.indexOf('?') + 1));
    const seen = new Set<string>();
    for (const [, href, label, count] of links) {
      const query = new URLSearchParams(href!.slice(href!.indexOf('?') + 1));
      expect(href!.startsWith(`${collection}?`)).toBe(true);
      // The link keeps the query and changes one parameter: adds the value, or joins it (not for date).
      const changed = [...new Set([...query.keys(), ...base.keys()])].filter((k) => query.get(k) !== base.get(k));
      expect([href, changed.length]).toEqual([href, 1]);
      const param = changed[0]!;
      seen.add(param);
      expect(params).toContain(param);
      const expected = base.get(param) === null || param === 'date' ? label! : `${base.get(param)!},${label!}`;
      expect([href, query.get(param)]).toEqual([href, expected]);
      const narrowed = JSON.parse((await get(href!)).text) as { 'hydra:totalItems': number };
      expect([href, narrowed['hydra:totalItems']]).toEqual([href, Number(count)]);
    }
    // Every facet the query does not use yet offers values (one it uses may have none left to add).
    for (const param of params.filter((p) => !base.has(p))) expect([param, seen.has(param)]).toEqual([param, true]);
    for (const value of base.values()) if (params.some((p) => base.get(p) === value)) expect(page).toContain(`<li class="active"><strong>`);
  }, 60_000);
});

describe('the reader’s language', () => {
  it.each([
    ['nl', undefined, 'Objecten', 'resultaten', 'Sorteren op', 'Periode (productie of ontwerp)', 'objectnummer'],
    ['nl', 'nl-BE,nl;q=0.9', 'Objecten', 'resultaten', 'Sorteren op', 'Periode (productie of ontwerp)', 'objectnummer'],
    ['en', 'en-GB,en;q=0.9', 'Objects', 'results', 'Sort by', 'Period (production or design)', 'object number'],
    ['fr', 'fr-BE,fr;q=0.9', 'Objets', 'résultats', 'Trier par', 'Période (production ou conception)', 'numéro d’inventaire'],
  ])('gives the search page in %s for Accept-Language %s', async (lang, acceptLanguage, title, results, sortBy, period, sortName) => {
    const res = await get('/v2/id/objects?q=stoel', { Accept: BROWSER, ...(acceptLanguage !== undefined ? { 'Accept-Language': acceptLanguage } : {}) });
    const page = decode(res.text);
    expect(res.headers.vary).toMatch(/Accept-Language/);
    expect(page).toContain(`<html lang="${lang}">`);
    expect(page).toContain(`<h1>${title}</h1>`);
    expect(page).toMatch(new RegExp(`<p class="total">\\d+ ${results}</p>`));
    expect(page).toContain(`>${sortBy}</label>`);
    expect(page).toContain(`<h2>${period}</h2>`);
    // Sort keys by their names for people, the API's value kept.
    expect(page).toContain(`<option value="objectNumber">${sortName}</option>`);
    const landing = await get('/', { Accept: BROWSER, ...(acceptLanguage !== undefined ? { 'Accept-Language': acceptLanguage } : {}) });
    expect(landing.text).toContain(`<html lang="${lang}">`);
  });

  it('lists the periods of the results in time order', async () => {
    const page = decode((await get('/v2/id/objects', { Accept: BROWSER, 'Accept-Language': 'en' })).text);
    const facet = /<h2>Period \(production or design\)<\/h2><ul>(.*?)<\/ul>/s.exec(page)?.[1] ?? '';
    const periods = [...facet.matchAll(/>(\d{4})\/\d{4}</g)].map((m) => Number(m[1]));
    expect(periods.length).toBeGreaterThan(12);
    expect(periods).toEqual([...periods].sort((a, b) => a - b));
  });
});

describe('pages that link both ways', () => {
  const listed = (): ObjectRecord[] => sourceObjects(demo.data).filter((o) => o.public && o.healthy && o.state.kind === 'current');
  const publicAgents = (): Map<string, AgentRecord> => new Map((sourceRecords(demo.data, 'agents') as AgentRecord[]).filter((a) => a.public).map((a) => [a.pid, a]));
  /** The cards of the section headed `title`: their paths, notes, and the count beside the heading. */
  function section(page: string, title: string): { count: number; paths: string[]; notes: string[]; all?: string } {
    const match = new RegExp(`<section class="linked"><h2>${title} <span class="count">(\\d+)</span></h2><ul class="cards">(.*?)</ul>(.*?)</section>`, 's').exec(page);
    if (match === null) return { count: 0, paths: [], notes: [] };
    const cards = [...match[2]!.matchAll(/<li class="card"><a href="([^"]+)">.*?<\/a>(?:<span class="card-note">([^<]*)<\/span>)?/gs)];
    const all = /<a href="([^"]+)">/.exec(match[3]!)?.[1];
    return { count: Number(match[1]), paths: cards.map((c) => c[1]!), notes: cards.map((c) => c[2] ?? ''), ...(all !== undefined ? { all } : {}) };
  }

  it('shows an agent’s objects with the agent’s role in each, and links to all of them', async () => {
    const agents = publicAgents();
    // The agent with the most listed objects, from the source: designer of a creation, producer of a production.
    const roles = new Map<string, Map<string, Set<string>>>();
    for (const object of listed()) {
      for (const [events, role] of [[object.creations, 'designer'], [object.productions, 'producer']] as const) {
        for (const event of events) {
          if (event.agent === undefined || !agents.has(event.agent)) continue;
          const byObject = roles.get(event.agent) ?? new Map<string, Set<string>>();
          roles.set(event.agent, byObject);
          byObject.set(object.objectNumber, (byObject.get(object.objectNumber) ?? new Set()).add(role));
        }
      }
    }
    const [pid, objects] = [...roles].sort((a, b) => b[1].size - a[1].size)[0]!;
    expect(objects.size).toBeGreaterThan(12);
    const page = decode((await get(`/v2/id/agent/${pid}`, { Accept: BROWSER, 'Accept-Language': 'en' })).text);
    const cards = section(page, 'Objects');
    expect(cards.count).toBe(objects.size);
    expect(cards.paths).toHaveLength(12);
    // In object-number order, as the objects' agent filter gives them, each with the agent's roles in it.
    const first = [...objects.keys()].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).slice(0, 12);
    expect(cards.paths).toEqual(first.map((n) => `/v2/id/object/${n}`));
    expect(cards.notes).toEqual(first.map((n) => ['designer', 'producer'].filter((r) => objects.get(n)!.has(r)).join(', ')));
    expect(cards.all).toBe(`/v2/id/objects?agent=${pid}`);
    const dutch = decode((await get(`/v2/id/agent/${pid}`, { Accept: BROWSER })).text);
    expect(section(dutch, 'Objecten').notes).toEqual(first.map((n) => ['ontwerper', 'producent'].filter((_, i) => objects.get(n)!.has(['designer', 'producer'][i]!)).join(', ')));
  });

  it('shows a concept’s objects, its narrower concepts’ included, as the concept filter counts them', async () => {
    // Concept 530001038 has 8 objects (issue 43); their number is the concept filter's total.
    const page = decode((await get('/v2/id/concept/530001038', { Accept: BROWSER, 'Accept-Language': 'en' })).text);
    const filtered = JSON.parse((await get('/v2/id/objects?concept=530001038&itemsPerPage=100')).text) as { 'hydra:totalItems': number; 'hydra:member': { '@id': string }[] };
    const cards = section(page, 'Objects');
    expect(cards.count).toBe(filtered['hydra:totalItems']);
    expect(cards.count).toBeGreaterThan(0);
    expect(cards.paths).toEqual(filtered['hydra:member'].slice(0, 12).map((m) => new URL(m['@id']).pathname));
    // Every card's object names the concept (or a narrower one) in its source record.
    for (const path of cards.paths) expect(listed().some((o) => `/v2/id/object/${o.objectNumber}` === path)).toBe(true);
  });

  it('shows the objects an exhibition showed as cards with their titles and thumbnails', async () => {
    const shown = new Set(listed().map((o) => o.objectNumber));
    const exhibition = (sourceRecords(demo.data, 'exhibitions') as ExhibitionRecord[]).find((e) => e.public && e.objects.filter((n) => shown.has(n)).length >= 3)!;
    const expected = exhibition.objects.filter((n) => shown.has(n));
    const page = decode((await get(`/v2/id/exhibition/${exhibition.pid}`, { Accept: BROWSER, 'Accept-Language': 'en' })).text);
    const cards = section(page, 'Objects shown');
    expect(cards.count).toBe(expected.length);
    expect(new Set(cards.paths).size).toBe(Math.min(12, expected.length));
    for (const path of cards.paths) expect(expected.map((n) => `/v2/id/object/${n}`)).toContain(path);
    const object = listed().find((o) => `/v2/id/object/${o.objectNumber}` === cards.paths[0])!;
    expect(page).toContain(`<span class="card-title">${object.titles.en ?? object.titles.nl}</span>`);
  });

  it('puts an object’s key facts first: maker with role, date, materials, dimensions and number', async () => {
    const agents = publicAgents();
    const object = listed().find((o) => o.creations.some((c) => c.agent !== undefined && agents.has(c.agent)) && o.productions.some((p) => p.date !== undefined) && o.dimensions.length > 0)!;
    const page = decode((await get(`/v2/id/object/${object.objectNumber}`, { Accept: BROWSER, 'Accept-Language': 'en' })).text);
    const facts = /<section class="key-facts"[^>]*><dl>(.*?)<\/dl><\/section>/s.exec(page)?.[1] ?? '';
    // Before the record's images and everything else it says.
    expect(page.indexOf('class="key-facts"')).toBeLessThan(page.indexOf('Everything the record says'));
    const designer = agents.get(object.creations.find((c) => c.agent !== undefined && agents.has(c.agent))!.agent!)!;
    expect(facts).toContain(`<a href="/v2/id/agent/${designer.pid}">${designer.name}</a> <span class="fact-note">(designer)</span>`);
    expect(facts).toContain(object.productions.find((p) => p.date !== undefined)!.date!.label);
    expect(facts).toContain(`<dt>Object number</dt><dd>${object.objectNumber}</dd>`);
    expect(facts).toMatch(/<dt>Dimensions<\/dt><dd>[^<]*\d cm/);
  });
});
