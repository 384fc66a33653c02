import { iriOf, LineSyntaxError, literalValue, parseQuadLine } from '../../src/store/nquads-line.js';

const reasonOf = (line: string): string => {
  try {
    parseQuadLine(line);
  } catch (err) {
    expect(err).toBeInstanceOf(LineSyntaxError);
    return (err as Error).message;
  }
  throw new Error(`line was accepted: ${line}`);
};

describe('N-Quads line parser', () => {
  it('splits a statement with a named graph into its four terms as written', () => {
    expect(parseQuadLine('<http://a.test/s> <http://a.test/p> "x"@nl-BE <http://a.test/g> .')).toEqual({
      subject: '<http://a.test/s>',
      predicate: '<http://a.test/p>',
      object: '"x"@nl-BE',
      graph: '<http://a.test/g>',
    });
  });

  it('reads a triple without a graph as a statement in the default graph', () => {
    expect(parseQuadLine('_:b1 <http://a.test/p> _:b2 .')).toEqual({
      subject: '_:b1',
      predicate: '<http://a.test/p>',
      object: '_:b2',
      graph: undefined,
    });
  });

  it('accepts typed literals, escapes, tabs, a trailing comment and a CR before the line end', () => {
    const line = '<http://a.test/s>\t<http://a.test/p>  "a \\"q\\" \\u00e9"^^<http://www.w3.org/2001/XMLSchema#string> _:g . # note\r';
    expect(parseQuadLine(line)?.object).toBe('"a \\"q\\" \\u00e9"^^<http://www.w3.org/2001/XMLSchema#string>');
    expect(parseQuadLine(line)?.graph).toBe('_:g');
  });

  it('returns undefined for blank lines and comment lines', () => {
    expect(parseQuadLine('')).toBeUndefined();
    expect(parseQuadLine('   \t')).toBeUndefined();
    expect(parseQuadLine('# a comment')).toBeUndefined();
    expect(parseQuadLine('\r')).toBeUndefined();
  });

  it('names a relative IRI with its column', () => {
    expect(reasonOf('<http://a.test/s> <p> <http://a.test/o> .')).toBe('predicate IRI is not absolute at column 19');
  });

  it('names a literal in the subject position', () => {
    expect(reasonOf('"s" <http://a.test/p> <http://a.test/o> .')).toBe(
      'expected subject (an IRI or a blank node) but found "\\"" at column 1',
    );
  });

  it('names an unterminated literal', () => {
    expect(reasonOf('<http://a.test/s> <http://a.test/p> "open .')).toBe('object literal is unterminated or has an invalid escape at column 37');
  });

  it('names a missing final dot', () => {
    expect(reasonOf('<http://a.test/s> <http://a.test/p> <http://a.test/o> <http://a.test/g>')).toBe(
      'expected "." at the end of the statement at column 72',
    );
  });

  it('names text after the final dot', () => {
    expect(reasonOf('<http://a.test/s> <http://a.test/p> <http://a.test/o> . extra')).toBe('unexpected text after the final "." at column 57');
  });

  it('names a literal used as graph name', () => {
    expect(reasonOf('<http://a.test/s> <http://a.test/p> <http://a.test/o> "g" .')).toBe(
      'expected graph name (an IRI or a blank node) but found "\\"" at column 55',
    );
  });

  it('rejects a space inside an IRI', () => {
    expect(reasonOf('<http://a.test/a b> <http://a.test/p> <http://a.test/o> .')).toMatch(/^subject IRI is malformed/);
  });

  it('rejects a malformed language tag', () => {
    expect(reasonOf('<http://a.test/s> <http://a.test/p> "x"@ .')).toBe('object literal has a malformed datatype or language tag at column 40');
  });

  it('resolves escapes in IRIs and literal values', () => {
    expect(iriOf('<http://a.test/\\u00e9>')).toBe('http://a.test/é');
    expect(iriOf('_:b')).toBeUndefined();
    expect(literalValue('"tab\\there \\U0001F600"@en')).toBe('tab\there 😀');
    expect(literalValue('"true"^^<http://www.w3.org/2001/XMLSchema#boolean>')).toBe('true');
    expect(literalValue('<http://a.test/x>')).toBeUndefined();
  });
});
