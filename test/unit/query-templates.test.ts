/**
 * The remote store's query templates (src/store/remote/query-templates.ts) stand for the rewrite of the bound
 * text: for every library entry whose parameters are IRIs, in both views, with one row or many, and with
 * record graphs public and non-public, a filled template is exactly the text the full rewrite writes
 * (graph-view.ts, itself checked against Virtuoso by the remote pass and by graph-view-golden.test.ts).
 */
import { QueryLibrary } from '../../src/queries/library.js';
import { generationGraphs, rewriteForView, type GraphView } from '../../src/store/remote/graph-view.js';
import { QueryTemplates } from '../../src/store/remote/query-templates.js';

const library = new QueryLibrary();
const BASE = 'https://data.designmuseumgent.be';
const GENERATION = '2026-11-27T07-00-00-000Z-abc123';
const options = { unionDefaultGraph: false, baseIri: `${BASE}/` };
const record = (n: number): string => `${BASE}/id/object/${n}`;
/** Every third record graph is non-public (a private record, as the admin graph is). */
const nonPublic = new Set([`${BASE}/graph/admin`, ...Array.from({ length: 40 }, (_, i) => record(3 * i))]);
const views: Record<string, GraphView> = {
  rest: { graphs: generationGraphs(GENERATION), includeNonPublic: true, nonPublicGraphs: nonPublic },
  public: { graphs: generationGraphs(GENERATION), includeNonPublic: false },
};
const iriEntries = library.names().filter((name) => {
  const { params } = library.get(name);
  return params.length > 0 && params.every((param) => param.type === 'iri');
});
/** `n` rows of distinct IRIs for the entry's parameters: record IRIs, the admin graph for `admin`. */
const rowsFor = (name: string, n: number): Record<string, string>[] =>
  Array.from({ length: n }, (_, i) => Object.fromEntries(library.get(name).params.map((param) => [param.name, param.name === 'admin' ? `${BASE}/graph/admin` : record(i + 1)])));

describe('query templates', () => {
  it('covers the record, page and stub queries of every kind, and the status query', () => {
    expect(iriEntries).toEqual(expect.arrayContaining(['records/record', 'records/page-records', 'records/status', 'objects/page-stubs', 'records/page-labels']));
  });

  describe.each(Object.entries(views))('in the %s view', (_label, view) => {
    const templates = new QueryTemplates(view, options);

    it.each(iriEntries)('%s: a filled template is the rewrite of the bound text', (name) => {
      for (const n of [1, 3, 100]) {
        const bound = library.bound(name, rowsFor(name, n));
        const expected = rewriteForView(bound.text, view, options);
        const filled = templates.rewrite(bound);
        expect(filled).toEqual(expected);
        // Filling leaves the template as it was: the same request again gives the same text.
        expect(templates.rewrite(bound)).toEqual(expected);
      }
    });
  });

  it('puts each record graph under its own prefix, public or non-public', () => {
    const templates = new QueryTemplates(views.rest as GraphView, options);
    const text = templates.rewrite(library.bound('records/page-records', [{ record: record(3) }, { record: record(4) }]))?.text ?? '';
    const { publicPrefix, nonPublicPrefix } = generationGraphs(GENERATION);
    expect(text).toContain(`<${nonPublicPrefix}${record(3)}>`);
    expect(text).toContain(`<${publicPrefix}${record(4)}>`);
    expect(text).not.toContain(`<${publicPrefix}${record(3)}>`);
    expect(text).not.toContain('urn:x-museum-ld:slot:');
  });

  it('leaves entries with other parameters to the text rewrite', () => {
    const name = library.names().find((entry) => library.get(entry).params.some((param) => param.type === 'date'));
    expect(name).toBeDefined();
    const templates = new QueryTemplates(views.rest as GraphView, options);
    expect(templates.rewrite(library.bound(name as string, { since: '2024-01-01' }))).toBeUndefined();
  });
});
