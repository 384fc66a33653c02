/**
 * A kind beyond the export's four harvested from a file of its own (src/harvest/kind-source.ts): its graphs
 * land in the public or non-public output with the admin facts of the others, and a bad line names its file
 * and line as the built-in kinds' do.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { GraphBuilder } from '../../src/harvest/graph-builder.js';
import type { KindSource } from '../../src/harvest/kind-source.js';
import { literal } from '../../src/harvest/nquads.js';
import { SourceLineError } from '../../src/harvest/source-line-error.js';
import { NS } from '../../src/vocab/namespaces.js';
import { BASE, copyFixture, graphNames, harvestToText, parseNQuads, removeCopy } from '../fixtures/source-mini/harvest-fixture.js';

const RDFS_LABEL = '<http://www.w3.org/2000/01/rdf-schema#label>';
const DOCUMENT = '<http://www.cidoc-crm.org/cidoc-crm/E31_Document>';
const book = z.object({ pid: z.string(), title: z.string(), public: z.boolean() });
type Book = z.infer<typeof book>;

const BOOKS: KindSource<Book> = {
  kind: 'book',
  file: 'books.jsonl',
  schema: book,
  pid: (b) => b.pid,
  isPublic: (b) => b.public,
  graph: (b, ctx) => {
    const g = GraphBuilder.ofRecord(`<${ctx.record}>`, DOCUMENT, b.title, { harvestedAt: '2026-11-28T00:00:00Z', modified: '2026-11-01', sameAs: [] });
    g.add(`<${ctx.record}>`, RDFS_LABEL, literal(`${b.title} (book)`));
    return g;
  },
};
const lines = (...records: unknown[]): string => records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n';

describe('a kind from a file of its own in the export', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await copyFixture();
  });
  afterEach(() => removeCopy(dir));

  it('writes each record as its graph, public or not, and counts them under the collection', async () => {
    await writeFile(join(dir, 'books.jsonl'), lines({ pid: 'B-1', title: 'Vormgeving', public: true }, { pid: 'B-2', title: 'Privé', public: false }));
    const without = await harvestToText(dir, { validateImages: false });
    const { report, publicText, nonPublicText } = await harvestToText(dir, { validateImages: false, kinds: { books: BOOKS as KindSource<never> } });
    expect(report.records.books).toBe(2);
    const publicGraphs = graphNames(parseNQuads(publicText));
    const nonPublicGraphs = graphNames(parseNQuads(nonPublicText));
    expect(publicGraphs.has(`${BASE}/v2/id/book/B-1`)).toBe(true);
    expect(publicGraphs.has(`${BASE}/v2/id/book/B-2`)).toBe(false);
    expect(nonPublicGraphs.has(`${BASE}/v2/id/book/B-2`)).toBe(true);
    // The private book's admin facts say so, as they do for the other kinds.
    expect(nonPublicText).toContain(`<${BASE}/v2/id/book/B-2> <${NS.admin}private> "true"^^<http://www.w3.org/2001/XMLSchema#boolean> <${BASE}/graph/admin> .`);
    // Everything else is what the export gives without the kind.
    const bookLines = publicText.split('\n').filter((l) => l.includes('/v2/id/book/'));
    expect(bookLines.length).toBe(5);
    expect(publicText.length - bookLines.join('\n').length - 1).toBe(without.publicText.length);
  });

  it('names the file and line of a bad record, a bad pid and a repeated pid', async () => {
    for (const [content, line, reason] of [
      [lines({ pid: 'B-1', title: 'a', public: true }, '{"pid": "B-2", "title": 3, "public": true}'), 2, 'title: '],
      [lines({ pid: 'B-1', title: 'a', public: true }, 'not json'), 2, 'invalid JSON'],
      [lines({ pid: 'B 1', title: 'a', public: true }), 1, 'is not a pid'],
      [lines({ pid: 'B-1', title: 'a', public: true }, { pid: 'B-1', title: 'b', public: true }), 2, 'duplicate pid B-1 (first on line 1)'],
    ] as const) {
      await writeFile(join(dir, 'books.jsonl'), content);
      const failure = harvestToText(dir, { validateImages: false, kinds: { books: BOOKS as KindSource<never> } });
      await expect(failure).rejects.toThrow(SourceLineError);
      await expect(failure).rejects.toThrow(new RegExp(`^books\\.jsonl:${line}: .*${reason.replace(/[()]/g, '\\$&')}`));
    }
  });
});
