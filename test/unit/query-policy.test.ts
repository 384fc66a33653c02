/**
 * The endpoint's policy around its parse (src/sparql/query-policy.ts): the bounds checked before any parse,
 * the parsed tree's depth, and QueryPolicy's verdict cache in front of the preparer (the parse worker in the
 * service; here a counting stand-in, so that what reaches it is seen).
 */
import fc from 'fast-check';
import { BadRequestError, ForbiddenError, ServiceUnavailableError } from '../../src/http/errors.js';
import { ParseBudgetError, ParseBusyError, ParseRefusedError } from '../../src/sparql/parse-errors.js';
import { MAX_AST_DEPTH, MAX_QUERY_DEPTH } from '../../src/queries/query-bounds.js';
import { PARSE_BUSY_MESSAGE, prepareQuery, QueryPolicy, type PolicyOptions, type PreparedQuery, type ProtocolDataset, type QueryPreparer } from '../../src/sparql/query-policy.js';

const OPTIONS: PolicyOptions = { baseIri: 'http://localhost:3000/sparql', maxRows: 100 };
const NO_DATASET: ProtocolDataset = { defaultGraphs: [], namedGraphs: [] };
const nested = (n: number): string => `SELECT * WHERE ${'{ '.repeat(n)}?s ?p ?o${' }'.repeat(n)}`;
const DEPTH_MESSAGE = 'The query is nested more than 64 levels deep (groups, parentheses and brackets); this endpoint accepts at most 64.';

/** A preparer that runs prepareQuery in this thread, or fails as told, and counts what it is asked. */
class CountingPreparer implements QueryPreparer {
  asked: string[] = [];
  failWith: Error | undefined;
  async prepare(query: string, dataset: ProtocolDataset, options: PolicyOptions): Promise<PreparedQuery> {
    this.asked.push(query);
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (this.failWith) throw this.failWith;
    return prepareQuery(query, dataset, options);
  }
}

describe('the policy before and after its parse', () => {
  it('refuses a query nested past the limit with a 400 naming it, before any parse', () => {
    expect(() => prepareQuery(nested(MAX_QUERY_DEPTH + 1), NO_DATASET, OPTIONS)).toThrow(new BadRequestError(DEPTH_MESSAGE));
    expect(() => prepareQuery(nested(20_000), NO_DATASET, OPTIONS)).toThrow(new BadRequestError(DEPTH_MESSAGE));
    expect(prepareQuery(nested(MAX_QUERY_DEPTH), NO_DATASET, OPTIONS).form).toBe('select');
  });

  it('refuses a chain of operators that parses deeper than the tree limit, however flat its text', () => {
    const chain = (n: number): string => `SELECT * WHERE { ?s ?p ?a FILTER(${Array.from({ length: n }, (_, i) => `?a = ${i}`).join(' || ')}) }`;
    expect(() => prepareQuery(chain(400), NO_DATASET, OPTIONS)).toThrow(BadRequestError);
    expect(() => prepareQuery(chain(400), NO_DATASET, OPTIONS)).toThrow(`nest more than ${MAX_AST_DEPTH} levels deep once parsed`);
    expect(prepareQuery(chain(100), NO_DATASET, OPTIONS).form).toBe('select');
    expect(prepareQuery(`SELECT * WHERE { ?s ?p ?a FILTER(?a IN (${Array.from({ length: 5000 }, (_, i) => i).join(', ')})) }`, NO_DATASET, OPTIONS).form).toBe('select');
  });

  it('accepts every query within the depth limit, whichever patterns make its levels', () => {
    // Three tree levels per bracket is the most any pattern makes (FILTER EXISTS { … }): within the tree limit.
    const level = fc.constantFrom('{ ?s ?p ?o . ', 'OPTIONAL { ?s ?p ?o . ', 'FILTER EXISTS { ?s ?p ?o . ', 'FILTER NOT EXISTS { ?s ?p ?o . ', 'MINUS { ?s ?p ?o . ', 'GRAPH ?g { ?s ?p ?o . ');
    fc.assert(
      fc.property(fc.array(level, { minLength: MAX_QUERY_DEPTH - 1, maxLength: MAX_QUERY_DEPTH - 1 }), (levels) => {
        const query = `SELECT * WHERE { ${levels.join('')}?s ?p ?o${' }'.repeat(levels.length)} }`;
        expect(prepareQuery(query, NO_DATASET, OPTIONS).form).toBe('select');
      }),
      { numRuns: 40 },
    );
  });
});

describe('the verdict cache in front of the parse worker', () => {
  it('asks the worker once for a repeated query, and once for identical queries at the same time', async () => {
    const preparer = new CountingPreparer();
    const policy = new QueryPolicy(OPTIONS, preparer);
    const query = 'SELECT * WHERE { ?s ?p ?o }';
    const [a, b] = await Promise.all([policy.prepare(query, NO_DATASET), policy.prepare(query, NO_DATASET)]);
    const c = await policy.prepare(query, NO_DATASET);
    expect(preparer.asked).toEqual([query]);
    expect(a).toBe(b);
    expect(c).toBe(a);
  });

  it('refuses a nested query at once without asking the worker, and refuses it again from the cache', async () => {
    const preparer = new CountingPreparer();
    const policy = new QueryPolicy(OPTIONS, preparer);
    await expect(policy.prepare(nested(3000), NO_DATASET)).rejects.toEqual(new BadRequestError(DEPTH_MESSAGE));
    await expect(policy.prepare(nested(3000), NO_DATASET)).rejects.toEqual(new BadRequestError(DEPTH_MESSAGE));
    expect(preparer.asked).toEqual([]);
  });

  it('remembers the worker refusals with their status, asking the worker once', async () => {
    const preparer = new CountingPreparer();
    const policy = new QueryPolicy(OPTIONS, preparer);
    preparer.failWith = new ParseRefusedError(403, 'read-only');
    for (let i = 0; i < 2; i++) await expect(policy.prepare('DROP ALL', NO_DATASET)).rejects.toEqual(new ForbiddenError('read-only'));
    preparer.failWith = new ParseRefusedError(400, 'SERVICE is not allowed');
    for (let i = 0; i < 2; i++) await expect(policy.prepare('SELECT * WHERE { SERVICE <x:> {} }', NO_DATASET)).rejects.toEqual(new BadRequestError('SERVICE is not allowed'));
    expect(preparer.asked).toEqual(['DROP ALL', 'SELECT * WHERE { SERVICE <x:> {} }']);
  });

  it('answers 400 "too complex" for a parse past the budget, and asks again next time (the load may have passed)', async () => {
    const preparer = new CountingPreparer();
    const policy = new QueryPolicy(OPTIONS, preparer);
    preparer.failWith = new ParseBudgetError(2000);
    await expect(policy.prepare('SELECT * WHERE { ?slow ?p ?o }', NO_DATASET)).rejects.toEqual(
      new BadRequestError('The query is too complex to parse within 2000 ms; simplify it (fewer or shorter patterns, less nesting).'),
    );
    preparer.failWith = undefined;
    await expect(policy.prepare('SELECT * WHERE { ?slow ?p ?o }', NO_DATASET)).resolves.toMatchObject({ form: 'select' });
    expect(preparer.asked).toEqual(['SELECT * WHERE { ?slow ?p ?o }', 'SELECT * WHERE { ?slow ?p ?o }']);
  });

  it('answers 503 with Retry-After when the worker is full, and asks again next time', async () => {
    const preparer = new CountingPreparer();
    const policy = new QueryPolicy(OPTIONS, preparer);
    preparer.failWith = new ParseBusyError(16);
    const busy = await policy.prepare('ASK {}', NO_DATASET).catch((err: unknown) => err);
    expect(busy).toBeInstanceOf(ServiceUnavailableError);
    expect(busy).toMatchObject({ status: 503, message: PARSE_BUSY_MESSAGE, headers: { 'Retry-After': '1' } });
    preparer.failWith = undefined;
    await expect(policy.prepare('ASK {}', NO_DATASET)).resolves.toMatchObject({ form: 'ask' });
    expect(preparer.asked).toEqual(['ASK {}', 'ASK {}']);
  });
});
