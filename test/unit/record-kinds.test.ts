import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KIND_NAMES } from '../../src/kinds/index.js';
import { DEFAULT_QUERIES_DIR, QueryLibrary } from '../../src/queries/library.js';
import { RecordKinds, recordKindOf } from '../../src/vocab/record-kinds.js';

const BASE = 'http://museum.test';
const book = { kind: 'book', collection: 'books', class: { iri: 'http://www.cidoc-crm.org/cidoc-crm/E31_Document', name: 'Document' } };

describe('RecordKinds', () => {
  it('lists the kinds of src/kinds in catalog order, with their collections', () => {
    expect(KIND_NAMES.names).toEqual(['object', 'agent', 'exhibition', 'concept']);
    expect(KIND_NAMES.kindAlternatives).toBe('object|agent|exhibition|concept');
    expect(KIND_NAMES.collectionAlternatives).toBe('objects|agents|exhibitions|concepts');
    expect(KIND_NAMES.ofCollection('agents')?.kind).toBe('agent');
    expect(KIND_NAMES.ofCollection('books')).toBeUndefined();
  });

  it('tells the kind of a record graph term, and nothing for any other graph', () => {
    const kinds = new RecordKinds([...KIND_NAMES.list, book]);
    expect(kinds.kindOfGraph(`<${BASE}/v2/id/book/B-1>`, BASE)).toBe('book');
    expect(kinds.kindOfGraph(`<${BASE}/v2/id/object/2017-0095_1-3>`, BASE)).toBe('object');
    for (const other of [
      `<${BASE}/v2/id/type/objectnummer>`, // not a kind
      `<${BASE}/v2/id/object/>`, // no pid
      `<${BASE}/v2/id/object/1/production>`, // a node inside a record
      `<http://other.test/v2/id/object/1>`, // another base
      `<${BASE}/graph/admin>`,
      `${BASE}/v2/id/object/1`, // not a term
    ]) {
      expect(kinds.kindOfGraph(other, BASE)).toBeUndefined();
    }
    expect(KIND_NAMES.kindOfGraph(`<${BASE}/v2/id/book/B-1>`, BASE)).toBeUndefined();
    expect(kinds.graphPattern.exec(`<${BASE}/v2/id/book/B-1>`)?.[1]).toBe(BASE);
  });

  it('tells the kind of a bare record IRI by the same rule', () => {
    const kinds = new RecordKinds([...KIND_NAMES.list, book]);
    expect(kinds.kindOfIri(`${BASE}/v2/id/book/B-1`, BASE)).toBe('book');
    expect(kinds.kindOfIri(`${BASE}/v2/id/agent/DMG-A-00001`, BASE)).toBe('agent');
    for (const other of [
      `<${BASE}/v2/id/book/B-1>`, // a term
      `${BASE}/v2/id/object/`,
      `${BASE}/v2/id/object/1/production`,
      `http://other.test/v2/id/object/1`,
      `${BASE}/v2/id/objects`,
    ]) {
      expect(kinds.kindOfIri(other, BASE)).toBeUndefined();
    }
    expect(recordKindOf(`${BASE}/v2/id/book/B-1`, BASE, new Set(['object']), 'iri')).toBeUndefined();
  });

  it('counts every kind from zero', () => {
    expect(new RecordKinds([...KIND_NAMES.list, book]).zeroCounts()).toEqual({ object: 0, agent: 0, exhibition: 0, concept: 0, book: 0 });
  });

  it('refuses two kinds of one name and names that cannot be a path segment', () => {
    expect(() => new RecordKinds([book, { ...book, collection: 'volumes' }])).toThrow('two kinds share a name');
    expect(() => new RecordKinds([book, { ...book, kind: 'volume' }])).toThrow('two kinds share a name');
    expect(() => new RecordKinds([{ ...book, kind: 'Book' }])).toThrow('lowercase letters');
    expect(() => new RecordKinds([{ ...book, collection: 'bo/oks' }])).toThrow('lowercase letters');
  });
});

describe('a kind bringing its own queries', () => {
  const query = (summary: string): string => `#+ summary: ${summary}\nSELECT ?book WHERE { GRAPH ?book { ?book a ?type } }\n`;
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kind-queries-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('adds them under their path, and including the folder again changes nothing', async () => {
    await mkdir(path.join(dir, 'books'));
    await writeFile(path.join(dir, 'books', 'index-books.rq'), query('The books.'));
    const library = new QueryLibrary();
    const before = library.names().length;
    library.include(dir);
    library.include(dir);
    expect(library.names().length).toBe(before + 1);
    expect(library.get('books/index-books').summary).toBe('The books.');
  });

  it('is made with the folders of the kinds that bring one', async () => {
    await mkdir(path.join(dir, 'books'));
    await writeFile(path.join(dir, 'books', 'index-books.rq'), query('The books.'));
    const library = QueryLibrary.forKinds([{}, { queries: dir }]);
    expect(library.includes(dir)).toBe(true);
    expect(library.get('books/index-books').summary).toBe('The books.');
    expect(new QueryLibrary().includes(dir)).toBe(false);
  });

  it('may not replace a query of the project', async () => {
    await mkdir(path.join(dir, 'records'));
    await writeFile(path.join(dir, 'records', 'record.rq'), query('Not the record.'));
    const library = new QueryLibrary();
    expect(() => library.include(dir)).toThrow(`the library has a query named records/record already (${path.join(DEFAULT_QUERIES_DIR, 'records', 'record.rq')})`);
    expect(library.get('records/record').summary).not.toBe('Not the record.');
  });
});
