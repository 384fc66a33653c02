/**
 * The stored graph states every owl:sameAs link twice (the spec's https predicate and the standard http one,
 * docs/graph-model.md); the object JSON shows only the spec's `owl:sameAs`. dropStandardSameAs on hand-made
 * nodes, and shapeObject on the fixture object framed with and without the standard links.
 */
import { frameRecordGraph } from '../../src/shaping/compiled-frame.js';
import { frameNQuads, loadFrame, type JsonObject } from '../../src/shaping/jsonld.js';
import { shapeObject } from '../../src/kinds/objects/shaping.js';
import { dropStandardSameAs, STANDARD_SAME_AS } from '../../src/shaping/rules.js';
import { BASE, copyFixture, harvestToText, removeCopy } from '../fixtures/source-mini/harvest-fixture.js';

const FRAME = loadFrame('object');
const CONTEXT = FRAME['@context'] as Record<string, unknown>;
const O = `${BASE}/v2/id/object/1987-1105`;

describe('dropStandardSameAs', () => {
  it('is the standard owl:sameAs IRI', () => {
    expect(STANDARD_SAME_AS).toBe('http://www.w3.org/2002/07/owl#sameAs');
  });

  it('removes the standard key from the node and every nested node, and nothing else', () => {
    const node: JsonObject = {
      '@context': { owl: 'https://www.w3.org/2002/07/owl#', [STANDARD_SAME_AS]: { '@type': '@id' } },
      '@id': 'x',
      'owl:sameAs': ['https://a'],
      [STANDARD_SAME_AS]: { '@id': 'https://a' },
      'crm:P12i_was_present_at': [
        { '@id': 'e1', 'owl:sameAs': 'https://e', [STANDARD_SAME_AS]: { '@id': 'https://e' } },
        { '@id': 'e2', 'crm:P14_carried_out_by': { '@id': 'a', [STANDARD_SAME_AS]: [{ '@id': 'https://b' }, { '@id': 'https://c' }] } },
      ],
    };
    dropStandardSameAs(node);
    expect(node).toEqual({
      // The context is term definitions, not a node: left alone.
      '@context': { owl: 'https://www.w3.org/2002/07/owl#', [STANDARD_SAME_AS]: { '@type': '@id' } },
      '@id': 'x',
      'owl:sameAs': ['https://a'],
      'crm:P12i_was_present_at': [
        { '@id': 'e1', 'owl:sameAs': 'https://e' },
        { '@id': 'e2', 'crm:P14_carried_out_by': { '@id': 'a' } },
      ],
    });
  });
});

describe('The object JSON with both sameAs predicates in the graph', () => {
  let triples: string;

  beforeAll(async () => {
    const dir = await copyFixture();
    try {
      const { publicText } = await harvestToText(dir, { validateImages: false });
      const tail = ` <${O}> .`;
      triples = publicText
        .split('\n')
        .filter((line) => line.endsWith(tail))
        .map((line) => `${line.slice(0, -tail.length)} .`)
        .join('\n');
    } finally {
      await removeCopy(dir);
    }
  });

  const withoutStandard = (): string =>
    triples
      .split('\n')
      .filter((line) => !line.includes(`<${STANDARD_SAME_AS}>`))
      .join('\n');

  it('frames the standard links as an absolute key, which shaping removes everywhere', () => {
    expect(triples).toContain(`<${STANDARD_SAME_AS}>`);
    const framed = frameRecordGraph(triples, O, CONTEXT);
    expect(JSON.stringify(framed)).toContain(`"${STANDARD_SAME_AS}"`);
    const shaped = JSON.stringify(shapeObject(framed));
    expect(shaped).not.toContain('http://www.w3.org/2002/07/owl#');
    expect(shaped).toContain('"owl:sameAs":["https://stad.gent/id/mensgemaaktobject/dmg/530012345"]');
  });

  it('gives byte for byte the record a graph with the spec sameAs alone gives (compiled frame and jsonld.js)', async () => {
    const only = withoutStandard();
    expect(only.split('\n').length).toBeLessThan(triples.split('\n').length);
    const expected = JSON.stringify(shapeObject(frameRecordGraph(only, O, CONTEXT)));
    expect(JSON.stringify(shapeObject(frameRecordGraph(triples, O, CONTEXT)))).toBe(expected);
    const reference = await frameNQuads(triples, { ...FRAME, '@id': O });
    expect(JSON.stringify(shapeObject(reference))).toBe(expected);
  });
});
