/**
 * A local server that serves Ghent's event streams as its server does (test/fixtures/ldes/coghent/NOTES.md §2):
 * the real members of the fixture, each stream one page in Ghent's envelope (`@included` members with the
 * reverse `memberOf`, `viewOf` the collection), JSON-LD only; the bare stream URL redirects (302) to the page.
 * The objects stream is the two replayed pages of the fixture, as they are: the older one `immutable`, the
 * latest one expiring. Members keep their own `@context`
 * (the contexts the harvest reads from contexts/coghent/ instead of fetching them).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const GHENT_FIXTURES = fileURLToPath(new URL('../fixtures/ldes/coghent/', import.meta.url));
const REAL_BASE = 'https://apidg.gent.be/opendata/adlib2eventstream/v1/';
const OBJECT_PAGES = { '2023-02-13T16:19:43.573Z': 'page-dmg-objecten-fragment1-REPLAYED-reduced.jsonld', '2023-02-13T16:20:14.156Z': 'page-dmg-objecten-fragment2-latest-REPLAYED-reduced.jsonld' };
const LATEST_OBJECTS = '2023-02-13T16:20:14.156Z';
/** The single-page streams: path under the base → member files. */
const SINGLE_PAGE_STREAMS: Record<string, string[]> = {
  'dmg/tentoonstellingen': ['member-dmg-exhibition-TE_1979-008.jsonld', 'member-dmg-exhibition-530000303-many-objects.jsonld'],
  'adlib/personen': ['member-agent-hva-470000026.jsonld', 'member-agent-hva-470000128.jsonld'],
  'adlib/thesaurus': ['member-concept-470000003-piano.jsonld', 'member-concept-470000018.jsonld'],
};
const PAGE_CONTEXT = {
  ldes: 'https://w3id.org/ldes#',
  prov: 'http://www.w3.org/ns/prov#',
  tree: 'https://w3id.org/tree#',
  sh: 'http://www.w3.org/ns/shacl#',
  dcterms: 'http://purl.org/dc/terms/',
  'tree:member': { '@type': '@id' },
  memberOf: { '@reverse': 'tree:member', '@type': '@id' },
  'tree:node': { '@type': '@id' },
  'tree:path': { '@type': '@id' },
  viewOf: { '@reverse': 'tree:view', '@type': '@id' },
};

export interface GhentStreams {
  /** The stream URLs: objects, exhibitions, agents, concepts. */
  urls: { objects: string; exhibitions: string; agents: string; concepts: string };
  /** The members served, each as its fixture file holds it. */
  members: Record<string, unknown>[];
  /** Set by a test: the status to answer a request with instead of its page (its path and query). */
  fail?: (pathAndQuery: string) => number | undefined;
  close(): Promise<void>;
}

export async function serveGhentStreams(): Promise<GhentStreams> {
  const read = async (name: string): Promise<string> => readFile(path.join(GHENT_FIXTURES, name), 'utf8');
  let origin = '';
  // Page URLs become this server's; the contexts keep theirs (the harvest reads its local copies of them).
  const local = (text: string): string => text.split(`${REAL_BASE}dmg/objecten`).join(`${origin}/v1/dmg/objecten`);
  const streams = {} as GhentStreams;
  const bodies = new Map<string, string>();
  const members: Record<string, unknown>[] = [];
  const server: Server = createServer((req, res) => {
    const failed = streams.fail?.(req.url ?? '/');
    if (failed !== undefined) {
      res.writeHead(failed, { 'content-type': 'text/html' }).end('No data found.');
      return;
    }
    const url = new URL(req.url ?? '/', origin);
    const stream = url.pathname.replace(/^\/v1\//, '');
    const time = url.searchParams.get('generatedAtTime');
    if (time === null && (stream === 'dmg/objecten' || stream in SINGLE_PAGE_STREAMS)) {
      res.writeHead(302, { location: `${origin}/v1/${stream}?generatedAtTime=${stream === 'dmg/objecten' ? LATEST_OBJECTS : 'latest'}` }).end();
      return;
    }
    const body = bodies.get(`${stream}?${time}`);
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('No data found.');
      return;
    }
    // As Ghent's server: a fragment with a newer one after it never changes; the latest one expires.
    const older = stream === 'dmg/objecten' && time !== LATEST_OBJECTS;
    const caching = older ? { 'cache-control': 'public, max-age=31536000, immutable' } : { expires: new Date(Date.now() + 3_600_000).toUTCString() };
    res.writeHead(200, { 'content-type': 'application/ld+json', 'content-language': 'nl', ...caching }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const [time, file] of Object.entries(OBJECT_PAGES)) {
    const text = await read(file);
    bodies.set(`dmg/objecten?${time}`, local(text));
    members.push(...(JSON.parse(text) as { '@included': Record<string, unknown>[] })['@included']);
  }
  for (const [stream, files] of Object.entries(SINGLE_PAGE_STREAMS)) {
    const included = await Promise.all(files.map(async (f) => JSON.parse(await read(f)) as Record<string, unknown>));
    members.push(...included);
    const collection = `https://stad.gent/id/dataset/${stream}`;
    const page = { '@context': PAGE_CONTEXT, '@id': `${origin}/v1/${stream}?generatedAtTime=latest`, '@type': 'tree:Node', viewOf: { '@id': collection, '@type': 'ldes:EventStream' }, '@included': included.map((m) => ({ ...m, memberOf: collection })) };
    bodies.set(`${stream}?latest`, JSON.stringify(page));
  }
  const at = (stream: string): string => `${origin}/v1/${stream}`;
  Object.assign(streams, {
    urls: { objects: at('dmg/objecten'), exhibitions: at('dmg/tentoonstellingen'), agents: at('adlib/personen'), concepts: at('adlib/thesaurus') },
    members,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
  return streams;
}
