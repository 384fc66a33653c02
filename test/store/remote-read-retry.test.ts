/**
 * Reads asked again across a server's brief absence (src/store/remote/remote-server.ts; issue 44): during a
 * publication's `checkpoint` Virtuoso's HTTP endpoint answered 404 and dropped connections for a moment. A real
 * HTTP server in front of a real Virtuoso answers the way the server did, a given number of times, then passes
 * requests on: a read is answered once the server is back, within its deadline; a read whose failures outlast
 * the deadline fails with the server's answer; a write and a refused query are sent once.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { QueryError, StoreUnavailableError } from '../../src/store/errors.js';
import { RemoteServer } from '../../src/store/remote/remote-server.js';
import { describeWithVirtuoso, startVirtuoso, type VirtuosoServer } from '../helpers/virtuoso.js';

const FILE = 'test/store/remote-read-retry.test.ts';
const JSON_RESULTS = 'application/sparql-results+json';

/** How the front answers the next requests before it passes them on: `hold` never answers (until closed). */
type Mishap = '404' | 'reset' | 'hold';

/** An HTTP server on a free port of 127.0.0.1 that answers `mishaps` in turn, then forwards to `target`. */
interface Front {
  url: string;
  /** Requests received, by path. */
  seen: string[];
  mishaps: Mishap[];
  close(): Promise<void>;
}

async function startFront(target: string): Promise<Front> {
  const front: Pick<Front, 'seen' | 'mishaps'> = { seen: [], mishaps: [] };
  const forward = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<string, string>;
    const answer = await fetch(new URL(req.url ?? '/', target), { method: req.method, headers, ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}) });
    const body = Buffer.from(await answer.arrayBuffer());
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
    res.end(body);
  };
  const server: Server = createServer((req, res) => {
    front.seen.push(new URL(req.url ?? '/', 'http://x').pathname);
    const mishap = front.mishaps.shift();
    if (mishap === 'hold') return;
    if (mishap === 'reset') {
      req.socket.destroy();
      return;
    }
    if (mishap === '404') {
      // What Virtuoso answered at /sparql during a checkpoint.
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><body>Not found</body></html>');
      return;
    }
    forward(req, res).catch(() => req.socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = (): Promise<void> =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return Object.assign(front, { url: `http://127.0.0.1:${port}/sparql`, close });
}

describeWithVirtuoso(FILE)('reads asked again across a brief absence of the SPARQL server', () => {
  let virtuoso: VirtuosoServer;
  let front: Front;
  let server: RemoteServer;

  beforeAll(async () => {
    virtuoso = await startVirtuoso();
    front = await startFront(virtuoso.sparqlUrl);
    server = new RemoteServer({ queryUrl: front.url, user: virtuoso.user, password: virtuoso.password });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await front?.close();
    await virtuoso?.stop();
  });
  beforeEach(() => {
    front.seen.length = 0;
    front.mishaps = [];
  });
  // A request aborted at its deadline may reach the front after the read failed: let it arrive before the next test.
  afterEach(async () => {
    let count: number;
    do {
      count = front.seen.length;
      await sleep(250);
    } while (count !== front.seen.length);
  });

  it('answers a read that met a 404 of the query endpoint, as during a checkpoint, once the server answers again', async () => {
    front.mishaps = ['404', '404'];
    const { body } = await server.query('ASK { }', JSON_RESULTS, 10_000);
    expect(JSON.parse(body)).toMatchObject({ boolean: true });
    expect(front.seen).toEqual(['/sparql', '/sparql', '/sparql']);
  });

  it('answers a read whose connection was reset', async () => {
    front.mishaps = ['reset'];
    const { body } = await server.query('ASK { }', JSON_RESULTS, 10_000);
    expect(JSON.parse(body)).toMatchObject({ boolean: true });
    expect(front.seen).toHaveLength(2);
  });

  it('answers a read without a deadline of its own (a data command) the same way', async () => {
    front.mishaps = ['404', 'reset'];
    expect(JSON.parse((await server.query('ASK { }', JSON_RESULTS)).body)).toMatchObject({ boolean: true });
    expect(front.seen).toHaveLength(3);
  });

  it('gives up within the deadline with the server answer when the 404s go on', async () => {
    front.mishaps = Array.from({ length: 1000 }, (): Mishap => '404');
    const failure = await server.query('ASK { }', JSON_RESULTS, 800).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    expect((failure as Error).message).toMatch(/failed \(404\)/);
    // Asked more than once, and far fewer times than a loop without a wait would have.
    expect(front.seen.length).toBeGreaterThan(1);
    expect(front.seen.length).toBeLessThan(20);
  });

  it('gives the server answer, not the deadline, when the deadline ends a request that asked again', async () => {
    front.mishaps = ['404', 'hold'];
    const failure = await server.query('ASK { }', JSON_RESULTS, 800).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    expect((failure as Error).message).toMatch(/failed \(404\)/);
    expect(front.seen).toEqual(['/sparql', '/sparql']);
  });

  it('sends a write once, whatever it met', async () => {
    front.mishaps = ['404', '404'];
    await expect(server.update('INSERT DATA { GRAPH <urn:x-test:retry> { <urn:x:a> <urn:x:b> 1 } }')).rejects.toThrow(/404/);
    expect(front.seen).toEqual(['/sparql-auth']);
  });

  it('sends a query the server refuses once', async () => {
    await expect(server.query('SELECT * WHERE { ?s ?p }', JSON_RESULTS, 10_000)).rejects.toThrow(QueryError);
    expect(front.seen).toEqual(['/sparql']);
  });
});
