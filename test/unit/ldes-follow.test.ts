/**
 * Following an event stream (src/harvest/ldes/follow.ts) over real HTTP: a local server serves the Ghent
 * objects stream as its server does (test/fixtures/ldes/coghent: its real members and contexts, pages replayed
 * from its code): the bare stream URL redirects (302) to the latest page, older pages are `immutable`, the
 * latest one expires. Then a server that fails (5xx, a timeout, a broken page, 429 with Retry-After), a bad
 * member, and the operator's limit on pages per second. Expected members are read off the fixture files.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Parser, Writer } from 'n3';
import { BadMembersError, FollowError, followStream, type FollowEvent, type FollowOptions } from '../../src/harvest/ldes/follow.js';
import { JOURNAL, latestEntries, readMembers } from '../../src/harvest/ldes/journal.js';
import { parsePage } from '../../src/harvest/ldes/page.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/ldes/coghent/', import.meta.url));
const REAL_BASE = 'https://apidg.gent.be/opendata/adlib2eventstream/v1/dmg/';
const OLDER = '2023-02-13T16:19:43.573Z';
const LATEST = '2023-02-13T16:20:14.156Z';

interface Fixture {
  '@id': string;
  '@included': { '@id': string; 'dcterms:isVersionOf': string; 'prov:generatedAtTime': string }[];
}

/** What the server does with a path, beyond serving the pages: a test sets it. */
type Behaviour = (req: IncomingMessage, res: ServerResponse) => boolean;

let server: Server;
let origin: string;
let pages: Record<string, string>;
let fixtures: Record<string, Fixture>;
let behaviour: Behaviour = () => false;
const requests: string[] = [];
let work: string;

const stream = (): string => `${origin}/v1/dmg/objecten`;
const pageUrl = (time: string): string => `${stream()}?generatedAtTime=${time}`;
const fast: FollowOptions = { pagesPerSecond: 1000, timeoutMs: 2000, attempts: 3, backoffMs: 10 };

beforeAll(async () => {
  const read = async (name: string): Promise<string> => readFile(path.join(FIXTURES, name), 'utf8');
  const older = await read('page-dmg-objecten-fragment1-REPLAYED-reduced.jsonld');
  const latest = await read('page-dmg-objecten-fragment2-latest-REPLAYED-reduced.jsonld');
  fixtures = { [OLDER]: JSON.parse(older) as Fixture, [LATEST]: JSON.parse(latest) as Fixture };
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (behaviour(req, res)) return;
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname !== '/v1/dmg/objecten') {
      res.writeHead(404, { 'content-type': 'text/html' }).end('No data found.');
      return;
    }
    const time = url.searchParams.get('generatedAtTime');
    // The bare stream URL: the latest page, as Ghent's server answers it.
    if (time === null) {
      res.writeHead(302, { location: pageUrl(LATEST) }).end();
      return;
    }
    const body = pages[time];
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('No data found.');
      return;
    }
    const headers: Record<string, string> = { 'content-type': 'application/ld+json' };
    if (time === LATEST) headers.expires = new Date(Date.now() + 3_600_000).toUTCString();
    else headers['cache-control'] = 'public, max-age=31536000, immutable';
    res.writeHead(200, headers).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The pages name each other by the real server's URL; here they are this server's (contexts keep theirs).
  const local = (text: string): string => text.split(REAL_BASE).join(`${origin}/v1/dmg/`);
  pages = { [OLDER]: local(older), [LATEST]: local(latest) };
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'ldes-follow-'));
  behaviour = () => false;
  requests.length = 0;
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

/** The members of the fixture pages, as [member IRI, record IRI, time]. */
const expectedMembers = (...times: string[]): [string, string, string][] =>
  times.flatMap((t) => (fixtures[t] as Fixture)['@included'].map((m): [string, string, string] => [m['@id'], m['dcterms:isVersionOf'], new Date(m['prov:generatedAtTime']).toISOString()])).sort();

const journal = async (dir: string): Promise<[string, string, string][]> =>
  (await readFile(path.join(dir, JOURNAL), 'utf8').catch(() => ''))
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { id: string; versionOf: string; time: string })
    .map((m): [string, string, string] => [m.id, m.versionOf, m.time])
    .sort();

describe('following an event stream', () => {
  it('reads the Ghent stream from its bare URL: redirect, every page, every member with its nested statements', async () => {
    const report = await followStream(stream(), work, fast);
    expect(report).toEqual({ pages: 2, members: 4, complete: 1 });
    expect(await journal(work)).toEqual(expectedMembers(OLDER, LATEST));
    // A member's statements reach its nested nodes: the object number is on an identifier two levels down.
    const entry = (await latestEntries(work)).get('https://stad.gent/id/mensgemaaktobject/dmg/530000019');
    if (entry === undefined) throw new Error('530000019 is not in the journal');
    const { value: member } = await readMembers([entry]).next();
    if (member === undefined) throw new Error('530000019 cannot be read back');
    expect(member.page).toBe(pageUrl(LATEST));
    const quads = new Parser({ format: 'application/n-quads' }).parse(member.nquads);
    expect(quads.some((q) => q.object.value === '2004-0056')).toBe(true);
    expect(quads.every((q) => !q.subject.value.includes('/v1/dmg/objecten'))).toBe(true);
  });

  it('reads again only what may have changed: the stream and its latest page, never a complete one', async () => {
    await followStream(stream(), work, fast);
    requests.length = 0;
    const again = await followStream(stream(), work, fast);
    expect(requests.some((r) => r.includes(OLDER))).toBe(false);
    expect(requests.filter((r) => r.includes(LATEST)).length).toBe(1);
    expect(again.pages).toBe(1);
    // Its members are journalled again; the latest version of each record stays the one it was.
    expect([...(await latestEntries(work)).keys()].sort()).toEqual(expectedMembers(OLDER, LATEST).map((m) => m[1]));
  });

  it('stops on a server that keeps failing, naming the page, and resumes there losing nothing', async () => {
    behaviour = (req, res) => {
      if (!(req.url ?? '').includes(OLDER)) return false;
      res.writeHead(503).end();
      return true;
    };
    const events: FollowEvent[] = [];
    const error = await followStream(stream(), work, { ...fast, onEvent: (e) => events.push(e) }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(FollowError);
    expect((error as FollowError).url).toBe(pageUrl(OLDER));
    expect((error as Error).message).toContain('answered 503, 3 times');
    expect(events.filter((e) => e.kind === 'retry').map((e) => (e as { waitMs: number }).waitMs)).toEqual([10, 20]);
    // What came before the failure is kept.
    expect(await journal(work)).toEqual(expectedMembers(LATEST));
    behaviour = () => false;
    requests.length = 0;
    await followStream(stream(), work, fast);
    expect(requests.filter((r) => r.includes(OLDER)).length).toBe(1);
    expect([...new Set((await journal(work)).map((m) => m[0]))].sort()).toEqual(expectedMembers(OLDER, LATEST).map((m) => m[0]));
  });

  it('tries a page again after a timeout, and waits as long as a 429 asks', async () => {
    let slow = 1;
    let limited = 1;
    behaviour = (req, res) => {
      if ((req.url ?? '').includes(OLDER) && slow-- > 0) return true; // never answered: the deadline ends it
      if ((req.url ?? '').includes(LATEST) && limited-- > 0) {
        res.writeHead(429, { 'retry-after': '1' }).end();
        return true;
      }
      return false;
    };
    const events: FollowEvent[] = [];
    const started = performance.now();
    const report = await followStream(stream(), work, { ...fast, timeoutMs: 300, onEvent: (e) => events.push(e) });
    expect(report.members).toBe(4);
    const retries = events.filter((e): e is Extract<FollowEvent, { kind: 'retry' }> => e.kind === 'retry');
    expect(retries.map((e) => [e.url, e.reason])).toEqual([
      [stream(), 'answered 429'],
      [pageUrl(OLDER), 'no answer within 300 ms'],
    ]);
    expect(retries[0]?.waitMs).toBe(1000);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000 + 300);
  });

  it('refuses a broken page and a page with bad members, naming them, and takes nothing of them', async () => {
    behaviour = (req, res) => {
      if (!(req.url ?? '').includes(OLDER)) return false;
      res.writeHead(200, { 'content-type': 'application/ld+json' }).end('{"@id": "x", "tree:relation": [');
      return true;
    };
    const broken = await followStream(stream(), work, fast).catch((err: unknown) => err);
    expect((broken as Error).message).toMatch(new RegExp(`^${pageUrl(OLDER).replace(/[?.]/g, '\\$&')}: a broken page: not JSON-LD`));
    expect(await journal(work)).toEqual(expectedMembers(LATEST));

    behaviour = (req, res) => {
      if (!(req.url ?? '').includes(OLDER)) return false;
      const turtle = `@prefix tree: <https://w3id.org/tree#> . @prefix dcterms: <http://purl.org/dc/terms/> . @prefix prov: <http://www.w3.org/ns/prov#> .
        <https://stad.gent/id/dataset/dmg/x> tree:member <https://example.org/m/1>, <https://example.org/m/2> .
        <https://example.org/m/1> dcterms:isVersionOf <https://example.org/r/1> ; prov:generatedAtTime "2023-02-13T16:00:00Z" .
        <https://example.org/m/2> prov:generatedAtTime "2023-02-13T16:00:00Z" .`;
      res.writeHead(200, { 'content-type': 'text/turtle' }).end(turtle);
      return true;
    };
    const bad = await followStream(stream(), work, fast).catch((err: unknown) => err);
    expect(bad).toBeInstanceOf(BadMembersError);
    expect((bad as BadMembersError).url).toBe(pageUrl(OLDER));
    expect((bad as BadMembersError).problems.map((p) => p.id)).toEqual(['https://example.org/m/2']);
    // The good member of that page is not taken either: the page is read again next time.
    expect((await journal(work)).some((m) => m[0] === 'https://example.org/m/1')).toBe(false);
  });

  it('keeps to the operator\'s limit of pages per second', async () => {
    const started = performance.now();
    await followStream(stream(), work, { ...fast, pagesPerSecond: 4 });
    // Two pages, the first at once and the next a quarter of a second later (the redirect is one request).
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('refuses a context it has no copy of, without fetching it', async () => {
    behaviour = (req, res) => {
      if (!(req.url ?? '').includes(OLDER)) return false;
      res.writeHead(200, { 'content-type': 'application/ld+json' }).end(JSON.stringify({ '@context': `${origin}/context.jsonld`, '@id': 'x' }));
      return true;
    };
    const error = await followStream(stream(), work, fast).catch((err: unknown) => err);
    expect((error as Error).message).toContain(`the JSON-LD context ${origin}/context.jsonld has no local copy`);
    expect(requests.some((r) => r.includes('context.jsonld'))).toBe(false);
  });
});

describe('a page read into quads', () => {
  it('reads a string given to a term typed rdf:langString as the plain string it is, which N-Quads can carry', async () => {
    // Ghent's exhibition members title the objects shown so (MensgemaaktObject.titel with a plain string).
    const page = JSON.stringify({
      '@context': { titel: { '@id': 'http://www.cidoc-crm.org/cidoc-crm/P102_has_title', '@type': 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString' } },
      '@id': 'https://ghent.test/object/1',
      titel: 'Glasramen van Armand Blondeel',
    });
    const [title] = await parsePage(page, 'application/ld+json', 'https://ghent.test/page');
    expect(title?.object).toMatchObject({ termType: 'Literal', value: 'Glasramen van Armand Blondeel', language: '' });
    expect((title?.object as { datatype: { value: string } }).datatype.value).toBe('http://www.w3.org/2001/XMLSchema#string');
    const text = await new Promise<string>((resolve, reject) => {
      const writer = new Writer({ format: 'N-Quads' });
      writer.addQuads([title as never]);
      writer.end((err: Error | null, result: string) => (err ? reject(err) : resolve(result)));
    });
    expect(new Parser({ format: 'application/n-quads' }).parse(text)).toHaveLength(1);
  });
});
