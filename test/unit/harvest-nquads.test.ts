/** N-Quads term serialisation and the lexical forms the harvest writes (escaping, units, years, slugs). */
import oxigraph from 'oxigraph';
import fc from 'fast-check';
import { iri, langLiteral, literal, typed, XSD, BlankNodes } from '../../src/harvest/nquads.js';
import { gYear } from '../../src/harvest/graph-builder.js';
import { centimetres, shiftDecimal, slug } from '../../src/harvest/units.js';

describe('N-Quads terms', () => {
  it('escapes quotes, backslashes, line ends and control characters in literals', () => {
    expect(literal('a"b\\c\nd\re\tf\u0001g\u007fh')).toBe('"a\\"b\\\\c\\nd\\re\\tf\\u0001g\\u007Fh"');
    expect(literal('plain é ✓ 🐟')).toBe('"plain é ✓ 🐟"');
    expect(langLiteral('Italië', 'nl')).toBe('"Italië"@nl');
    expect(typed('1987', XSD.gYear)).toBe('"1987"^^<http://www.w3.org/2001/XMLSchema#gYear>');
  });

  it('percent-encodes the characters an IRI may not contain and leaves the rest alone', () => {
    expect(iri('https://x.test/a b<c>"d{e}|f^g`h\\i')).toBe('<https://x.test/a%20b%3Cc%3E%22d%7Be%7D%7Cf%5Eg%60h%5Ci>');
    expect(iri('https://x.test/caf%C3%A9/é?q=1#f')).toBe('<https://x.test/caf%C3%A9/é?q=1#f>');
    expect(iri('http://[::1]:8080/a[1]?b=100%#x#y')).toBe('<http://[::1]:8080/a%5B1%5D?b=100%25#x%23y>');
    expect(iri('https://x.test/\u0085\ue000\ufdd0')).toBe('<https://x.test/%C2%85%EE%80%80%EF%B7%90>');
  });

  it('turns any URL path and query into an IRI a strict parser accepts', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (tail) => {
        const text = `${iri(`https://x.test/${tail}`)} <https://x.test/p> "o" .\n`;
        expect(oxigraph.parse(text, { format: 'application/n-quads' })).toHaveLength(1);
      }),
      { numRuns: 2000 },
    );
  });

  it('writes any string as a literal that reads back unchanged', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (value) => {
        const [quad] = oxigraph.parse(`<https://x.test/s> <https://x.test/p> ${literal(value)} .\n`, { format: 'application/n-quads' });
        expect(quad?.object.value).toBe(value);
      }),
      { numRuns: 2000 },
    );
  });

  it('writes quads that a strict N-Quads parser reads back to the same values', () => {
    const nasty = 'quote " backslash \\ newline \n return \r tab \t bell \u0007 del \u007f emoji 🐟';
    const text = `${iri('https://x.test/s p')} ${iri('https://x.test/p')} ${literal(nasty)} ${iri('https://x.test/g')} .\n`;
    const [quad] = oxigraph.parse(text, { format: 'application/n-quads' });
    expect(quad?.object.value).toBe(nasty);
    expect(quad?.subject.value).toBe('https://x.test/s%20p');
  });

  it('mints distinct blank node labels, scoped by the graph and the same for the same graph', () => {
    const first = new BlankNodes('<https://x.test/id/object/1>');
    const labels = [first.mint(), first.mint(), first.mint()];
    expect(new Set(labels).size).toBe(3);
    for (const label of labels) expect(label).toMatch(/^_:r[A-Za-z0-9_-]{12}_[1-3]$/);
    // Parsed as blank nodes by a strict N-Quads parser.
    const [quad] = oxigraph.parse(`${labels[0]} <https://x.test/p> ${labels[1]} <https://x.test/g> .\n`, { format: 'application/n-quads' });
    expect(quad?.subject.termType).toBe('BlankNode');
    const again = new BlankNodes('<https://x.test/id/object/1>');
    expect([again.mint(), again.mint(), again.mint()]).toEqual(labels);
    const other = new BlankNodes('<https://x.test/id/object/2>');
    expect(labels).not.toContain(other.mint());
  });
});

describe('Lexical forms', () => {
  it('pads xsd:gYear to four digits and keeps the sign of BCE years', () => {
    expect([gYear(1987), gYear(5), gYear(-50), gYear(0)]).toEqual(['1987', '0005', '-0050', '0000']);
  });

  it('converts millimetres and metres to centimetres without float noise', () => {
    expect(centimetres(135, 'mm')).toBe('13.5');
    expect(centimetres(0.073, 'm')).toBe('7.3');
    expect(centimetres(7.3, 'cm')).toBe('7.3');
    expect(centimetres(1, 'm')).toBe('100');
    expect(centimetres(0.5, 'mm')).toBe('0.05');
    expect(centimetres(42, 'mm')).toBe('4.2');
  });

  it('rounds to a hundredth of a millimetre but never rounds a measurement to zero', () => {
    expect(centimetres(13.4999999999, 'cm')).toBe('13.5');
    expect(centimetres(2.0004, 'cm')).toBe('2');
    expect(centimetres(0.0001, 'mm')).toBe('0.00001');
  });

  it('moves the decimal point of numbers JavaScript prints with an exponent', () => {
    expect(shiftDecimal(1e-7, 0)).toBe('0.0000001');
    expect(shiftDecimal(1.5e21, -1)).toBe('150000000000000000000');
  });

  it('makes URL-safe slugs of acquisition methods', () => {
    expect(slug('oningeschreven gevonden')).toBe('oningeschreven-gevonden');
    expect(slug('Schenking (legaat)')).toBe('schenking-legaat');
    expect(slug('Aankoop é')).toBe('aankoop-e');
    expect(slug('???')).toBe('%3F%3F%3F');
  });
});
