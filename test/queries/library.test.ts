import sparqljs from 'sparqljs';
import fc from 'fast-check';
import { QueryLibrary, parseHeader } from '../../src/queries/library.js';
import { TermError, toRdfTerm } from '../../src/queries/terms.js';

const library = new QueryLibrary();
const parser = new sparqljs.Parser();
const generator = new sparqljs.Generator();

const HOSTILE = [
  'x" } UNION { ?s ?p ?o } #',
  "x' . ?s ?p ?o . '",
  'a>b',
  '<http://evil/>',
  'line\nbreak',
  '} UNION {',
  '\\u003E',
  '\u0000',
  'DROP ALL',
  '"""',
  'x\\" } #',
  'é ü ß 東京',
];

/** The query's meaning: the parsed, re-serialised AST (whitespace and formatting independent). */
const meaning = (text: string): string => generator.stringify(parser.parse(text));

describe('Query library', () => {
  it('parses every .rq file of queries/ with a summary and typed params', () => {
    expect(library.names()).toContain('records/record');
    for (const name of library.names()) {
      const entry = library.get(name);
      expect(entry.summary.length).toBeGreaterThan(10);
      expect(entry.ast.type).toBe('query');
    }
  });

  it('reads grlc-style headers and refuses a param line without a known type', () => {
    const header = parseHeader('#+ summary: s\n#+ param: id - iri - the record', 'x.rq');
    expect(header.params).toEqual([{ name: 'id', type: 'iri', description: 'the record' }]);
    expect(() => parseHeader('#+ summary: s\n#+ param: id - banana - x', 'x.rq')).toThrow(/bad #\+ param/);
  });

  it('reads the part of the generation a query reads: the public one, unless `#+ part: non-public`', () => {
    expect(parseHeader('#+ summary: s', 'x.rq').nonPublic).toBe(false);
    expect(parseHeader('#+ summary: s\n#+ part: non-public', 'x.rq').nonPublic).toBe(true);
    expect(() => parseHeader('#+ summary: s\n#+ part: everything', 'x.rq')).toThrow(/bad #\+ part/);
  });

  it('binds values as a VALUES block in front of the WHERE clause', () => {
    const text = library.bind('records/record', { record: 'http://localhost:3000/v2/id/object/1482', admin: 'http://localhost:3000/graph/admin' });
    const ast = parser.parse(text) as { where: { type: string }[] };
    expect(ast.where[0]?.type).toBe('values');
    expect(text).toContain('<http://localhost:3000/v2/id/object/1482>');
  });

  it('refuses hostile IRIs instead of writing them into the query', () => {
    for (const value of HOSTILE) {
      expect(() => library.bind('records/record', { record: `http://x/${value}`, admin: 'http://x/admin' })).toThrow(TermError);
    }
  });

  it('keeps the meaning of the query whatever string literal is bound', () => {
    // Bind a string literal in place of the record IRI: the only change must be the literal's value.
    const reference = meaning(library.bind('records/record', { record: 'http://x/a', admin: 'http://x/admin' }));
    const check = (value: string): void => {
      const ast = library.bindAst('records/record', [{ record: 'http://x/a', admin: 'http://x/admin' }]);
      const values = (ast as unknown as { where: { values: Record<string, unknown>[] }[] }).where[0]!.values[0]!;
      values['?record'] = toRdfTerm('string', value);
      const reparsed = parser.parse(generator.stringify(ast)) as unknown as { where: { values: Record<string, { value: string }>[] }[] };
      // The literal survives the round trip unchanged...
      expect(reparsed.where[0]!.values[0]!['?record']!.value).toBe(value);
      // ...and putting the IRI back gives exactly the reference query: nothing leaked into the structure.
      reparsed.where[0]!.values[0]!['?record'] = toRdfTerm('iri', 'http://x/a') as never;
      expect(generator.stringify(reparsed as never)).toBe(reference);
    };
    for (const value of HOSTILE) check(value);
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (value) => check(value)), { numRuns: 300 });
  });

  it('refuses typed values that are not of their datatype', () => {
    expect(() => toRdfTerm('integer', '1 } UNION {')).toThrow(TermError);
    expect(() => toRdfTerm('date', '2026-02-30x')).toThrow(TermError);
    expect(toRdfTerm('integer', 42).value).toBe('42');
  });

  it('refuses unknown and missing parameters', () => {
    expect(() => library.bind('records/record', { record: 'http://x/a' })).toThrow(/missing parameter admin/);
    expect(() => library.bind('records/record', { record: 'http://x/a', admin: 'http://x/b', extra: 'x' })).toThrow(/unknown parameter/);
  });
});
