/**
 * The SPARQL parse worker (src/sparql/parse-worker.ts): the policy and the public-view rewrite run in its
 * thread with the same verdicts as in this one; a query past the budget ends the thread and the next query
 * is answered by a new one; a full queue refuses at once; a crashed thread is replaced; an idle thread does
 * not keep a process alive.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ParseBudgetError, ParseBusyError, ParseRefusedError } from '../../src/sparql/parse-errors.js';
import { ParseWorker } from '../../src/sparql/parse-worker.js';
import { UPDATE_REFUSED, SERVICE_REFUSED, type ProtocolDataset } from '../../src/sparql/query-policy.js';
import { generationGraphs, rewriteForView } from '../../src/store/remote/graph-view.js';

const OPTIONS = { baseIri: 'http://localhost:3000/sparql', maxRows: 100 };
const NO_DATASET: ProtocolDataset = { defaultGraphs: [], namedGraphs: [] };
/** A flat query of about `kb` kB: sparqljs needs some hundreds of milliseconds for 200 kB. */
/** A flat query of about `kb` kB: one pattern and a long VALUES list (a text of many patterns would pass the cost check's limit). */
const flatQuery = (kb: number): string => `SELECT * WHERE { ?s <http://example.org/p> ?o VALUES ?o { ${'"a { literal" '.repeat(Math.ceil((kb * 1024) / 14))}} }`;
const CRASHING = new URL('../fixtures/workers/parse-worker-crashing.ts', import.meta.url);

describe('the SPARQL parse worker', () => {
  const workers: ParseWorker[] = [];
  const worker = (options: ConstructorParameters<typeof ParseWorker>[0] = {}): ParseWorker => {
    const made = new ParseWorker(options);
    workers.push(made);
    return made;
  };
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close()));
  });

  it('prepares a query in its thread: the endpoint as BASE, the row cap as LIMIT', async () => {
    const prepared = await worker().prepare('SELECT * WHERE { ?s ?p ?o } LIMIT 5', NO_DATASET, OPTIONS);
    expect(prepared).toMatchObject({ form: 'select', text: 'BASE <http://localhost:3000/sparql>\nSELECT * WHERE { ?s ?p ?o } LIMIT 5', unionDefaultGraph: true, rowCapApplied: false });
    const capped = await workers[0]?.prepare('ASK { ?s ?p ?o }', { defaultGraphs: ['http://localhost:3000/g'], namedGraphs: [] }, OPTIONS);
    expect(capped).toMatchObject({ form: 'ask', unionDefaultGraph: false, rowCapApplied: false });
  });

  it('answers the policy refusals with their status and message', async () => {
    const parser = worker();
    await expect(parser.prepare('DROP ALL', NO_DATASET, OPTIONS)).rejects.toEqual(new ParseRefusedError(403, UPDATE_REFUSED));
    await expect(parser.prepare('SELECT * WHERE { SERVICE <http://example.org/> { ?s ?p ?o } }', NO_DATASET, OPTIONS)).rejects.toEqual(new ParseRefusedError(400, SERVICE_REFUSED));
    await expect(parser.prepare('SELECT * WHERE {', NO_DATASET, OPTIONS)).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/^Invalid SPARQL query: Parse error/) });
  });

  it('rewrites a query for the public view of a generation as the store would in its own thread', async () => {
    const text = 'SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g';
    const options = { unionDefaultGraph: true, baseIri: OPTIONS.baseIri };
    const inThread = rewriteForView(text, { graphs: generationGraphs('20240101-1'), includeNonPublic: false }, options);
    await expect(worker().rewrite(text, '20240101-1', options)).resolves.toEqual(inThread);
    await expect(workers.at(-1)?.rewrite('SELECT * WHERE { ?s <urn:x:f>(?o) ?o }', '20240101-1', options)).rejects.toBeInstanceOf(ParseRefusedError);
  });

  it('ends a query past its budget with ParseBudgetError, and answers the next one in a new thread', async () => {
    // A budget that the next query's first parse in a cold thread (some 40 ms) stays within even on a loaded
    // machine, and a query of 240 kB (0.6 s of sparqljs, warm) that it cannot.
    const parser = worker({ budgetMs: 250 });
    await parser.prepare('ASK {}', NO_DATASET, OPTIONS);
    await expect(parser.prepare(flatQuery(240), NO_DATASET, OPTIONS)).rejects.toEqual(new ParseBudgetError(250));
    await expect(parser.prepare('ASK { ?s ?p ?o }', NO_DATASET, OPTIONS)).resolves.toMatchObject({ form: 'ask' });
  });

  it('refuses a query at once when the queue is full, and answers those it took', async () => {
    const parser = worker({ maxQueued: 2 });
    await parser.prepare('ASK {}', NO_DATASET, OPTIONS);
    // The first goes to the thread, the next two wait, the fourth finds the queue full.
    const taken = [flatQuery(100), 'ASK { ?a ?b ?c }', 'ASK { ?d ?e ?f }'].map((q) => parser.prepare(q, NO_DATASET, OPTIONS));
    await expect(parser.prepare('ASK { ?g ?h ?i }', NO_DATASET, OPTIONS)).rejects.toEqual(new ParseBusyError(2));
    expect((await Promise.all(taken)).map((p) => p.form)).toEqual(['select', 'ask', 'ask']);
  });

  it('fails the query a crashed thread had, and answers the next one in a new thread', async () => {
    const parser = worker({ entry: CRASHING });
    await parser.prepare('ASK {}', NO_DATASET, OPTIONS);
    await expect(parser.prepare('ASK { ?s ?p "CRASH" }', NO_DATASET, OPTIONS)).rejects.toThrow(/the SPARQL parse worker stopped while parsing the query: .*exited with code 7/);
    await expect(parser.prepare('ASK { ?s ?p "fine" }', NO_DATASET, OPTIONS)).resolves.toMatchObject({ form: 'ask' });
  });

  it('rejects what waits when closed, and starts a new thread for a later query', async () => {
    const parser = worker();
    const waiting = expect(parser.prepare('ASK {}', NO_DATASET, OPTIONS)).rejects.toThrow('the SPARQL parse worker was closed');
    await parser.close();
    await waiting;
    await expect(parser.prepare('ASK {}', NO_DATASET, OPTIONS)).resolves.toMatchObject({ form: 'ask' });
  });

  it('does not keep a process alive once idle', async () => {
    const module = fileURLToPath(new URL('../../src/sparql/parse-worker.ts', import.meta.url));
    const dir = mkdtempSync(join(tmpdir(), 'parse-worker-'));
    const script = join(dir, 'idle.mts');
    writeFileSync(
      script,
      `const { ParseWorker } = await import(${JSON.stringify(module)});
      const parser = new ParseWorker();
      parser.warm();
      const prepared = await parser.prepare('ASK {}', { defaultGraphs: [], namedGraphs: [] }, { baseIri: 'http://a/', maxRows: 1 });
      console.log(prepared.form);`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill(), 30_000);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    clearTimeout(timer);
    rmSync(dir, { recursive: true, force: true });
    expect([code, out.trim()]).toEqual([0, 'ask']);
  });
});
