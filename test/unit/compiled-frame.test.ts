/**
 * The compiled object frame against jsonld.js: byte-equal framed documents on hand-made graphs that reach the
 * corners of framing and compaction (cycles, shared blank nodes, literals of every kind), on one graph worked
 * out by hand, and on record graphs read from a page's rows. Every listed demo record of every kind is served
 * byte for byte as jsonld.js frames and shapes it: test/endpoints/record-framing.test.ts.
 */
import { frameRecordGraph, frameRecordNodes } from '../../src/shaping/compiled-frame.js';
import { parseRecordRows } from '../../src/shaping/record-graph.js';
import { frameNQuads, loadFrame, type JsonObject } from '../../src/shaping/jsonld.js';
import { sourceObjects, startDemoApp, type DemoApp } from '../helpers/demo.js';

const FRAME = loadFrame('object');
const CONTEXT = FRAME['@context'] as Record<string, unknown>;
const reference = (nquads: string, iri: string): Promise<JsonObject> => frameNQuads(nquads, { ...FRAME, '@id': iri });

const RDF_TYPE = '<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>';
const CRM = 'http://www.cidoc-crm.org/cidoc-crm/';
const LABEL = '<http://www.w3.org/2000/01/rdf-schema#label>';
const SAME_AS = '<https://www.w3.org/2002/07/owl#sameAs>';
const THUMBNAIL = '<http://xmlns.com/foaf/0.1/thumbnail>';
const ROOT = 'http://x/object/1';
const root = `<${ROOT}>`;
const objectType = `${root} ${RDF_TYPE} <${CRM}E22_Human-Made_Object> .`;

describe('The compiled object frame on hand-made graphs', () => {
  it('builds the document a reader derives from the context by hand', () => {
    const nquads = [
      objectType,
      `${root} ${LABEL} "Vaas" .`,
      `${root} <${CRM}P43_has_dimension> _:d .`,
      `_:d <${CRM}P90_has_value> "6.7"^^<http://www.w3.org/2001/XMLSchema#double> .`,
      `${root} ${SAME_AS} <http://other/1> .`,
    ].join('\n');
    // Keys follow the expanded IRIs (cidoc-crm < w3.org/2000 < https://www.w3.org/2002/owl), the blank node
    // is referenced once so loses its label, owl:sameAs (@type @id) compacts the reference to a string, and the
    // measurement (a term coercing xsd:double) its value to the lexical form.
    expect(JSON.stringify(frameRecordGraph(nquads, ROOT, CONTEXT))).toBe(
      JSON.stringify({
        '@context': CONTEXT,
        '@id': ROOT,
        '@type': 'crm:E22_Human-Made_Object',
        'crm:P43_has_dimension': { 'crm:P90_has_value': '6.7' },
        'rdfs:label': 'Vaas',
        'owl:sameAs': 'http://other/1',
      }),
    );
  });

  const cases: Record<string, string[]> = {
    'a measurement of another datatype than the context coerces (a generation harvested before doubles)': [
      objectType,
      `${root} <${CRM}P43_has_dimension> _:d .`,
      `_:d <${CRM}P90_has_value> "6.7"^^<http://www.w3.org/2001/XMLSchema#decimal> .`,
      `${root} <${CRM}P43_has_dimension> _:e .`,
      `_:e <${CRM}P90_has_value> "12"^^<http://www.w3.org/2001/XMLSchema#double> .`,
    ],
    'a cycle back to the root and between two embedded nodes': [
      objectType,
      `${root} <${CRM}P108i_was_produced_by> <http://x/production> .`,
      `<http://x/production> <${CRM}P108_has_produced> ${root} .`,
      `<http://x/production> <${CRM}P14_carried_out_by> <http://x/agent> .`,
      `<http://x/agent> <${CRM}P14i_performed> <http://x/production> .`,
      `<http://x/agent> ${SAME_AS} <http://x/production> .`,
    ],
    'a blank node reached twice, which keeps a relabelled identifier': [
      objectType,
      `${root} <${CRM}P43_has_dimension> _:z .`,
      `${root} <${CRM}P1_is_identified_by> _:a .`,
      `_:a <${CRM}P2_has_type> _:z .`,
      `_:z ${LABEL} "shared" .`,
      `_:q ${LABEL} "unreachable" .`,
    ],
    'literals of every kind, escapes and a duplicate triple': [
      objectType,
      `${root} ${LABEL} "Vaas"@nl .`,
      `${root} ${LABEL} "Vase"@en-GB .`,
      `${root} ${LABEL} "explicit string"^^<http://www.w3.org/2001/XMLSchema#string> .`,
      `${root} <${CRM}P3_has_note> "quote \\" backslash \\\\ newline \\n tab \\t unicode \\u00E9 \\U0001F600" .`,
      `${root} <${CRM}P3_has_note> "quote \\" backslash \\\\ newline \\n tab \\t unicode \\u00E9 \\U0001F600" .`,
      `${root} <${CRM}P90_has_value> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .`,
      `${root} <${CRM}P90_has_value> "true"^^<http://www.w3.org/2001/XMLSchema#boolean> .`,
      `${root} <${CRM}P90_has_value> "x"^^<http://example.org/datatype> .`,
      `${root} ${RDF_TYPE} "a literal type" .`,
    ],
    '@type: @id terms with references, embedded nodes and literals': [
      objectType,
      `${root} ${RDF_TYPE} <${CRM}E19_Physical_Object> .`,
      `${root} ${SAME_AS} <http://other/plain> .`,
      `${root} ${SAME_AS} <http://other/described> .`,
      `<http://other/described> ${LABEL} "described" .`,
      `${root} ${SAME_AS} "a literal" .`,
      `${root} ${THUMBNAIL} <http://img/thumb.jpg> .`,
      `<http://img/thumb.jpg> ${THUMBNAIL} "not a reference" .`,
      `${root} <http://schema.org/position> <${CRM}E55_Type> .`,
      `${root} <http://xmlns.com/foaf/0.1/depiction> <http://xmlns.com/foaf/0.1/thumbnail> .`,
    ],
  };

  for (const [name, lines] of Object.entries(cases)) {
    it(`equals jsonld.js on ${name}`, async () => {
      const nquads = `${lines.join('\n')}\n`;
      expect(JSON.stringify(frameRecordGraph(nquads, ROOT, CONTEXT))).toBe(JSON.stringify(await reference(nquads, ROOT)));
    });
  }

  it('matches the root by its IRI alone and answers the context alone without it, as jsonld.js does', async () => {
    for (const nquads of [`${root} ${LABEL} "no type" .\n`, `${root} ${RDF_TYPE} <${CRM}E55_Type> .\n`, `<http://x/other> ${LABEL} "v" .\n`]) {
      expect(JSON.stringify(frameRecordGraph(nquads, ROOT, CONTEXT))).toBe(JSON.stringify(await reference(nquads, ROOT)));
    }
  });

  it('gives every document its own context, so shaping one cannot change the next', () => {
    const nquads = `${objectType}\n`;
    const first = frameRecordGraph(nquads, ROOT, CONTEXT);
    (first['@context'] as JsonObject)['owl:sameAs'] = [];
    expect(frameRecordGraph(nquads, ROOT, CONTEXT)['@context']).toEqual(CONTEXT);
  });

  it('refuses named graphs instead of framing them differently from jsonld.js', () => {
    expect(() => frameRecordGraph(`${root} ${LABEL} "v" <http://x/g> .\n`, ROOT, CONTEXT)).toThrow(/named graphs/);
  });
});

let demo: DemoApp;
beforeAll(async () => {
  demo = await startDemoApp();
}, 180_000);
afterAll(async () => demo.close());

describe('Record graphs read from SPARQL TSV results (collection pages)', () => {
  const XSD = 'http://www.w3.org/2001/XMLSchema#';

  it('reads bare numbers and booleans as Turtle writes them, and quoted, typed and tagged literals as written', () => {
    const tsv = [
      '?record\t?s\t?p\t?o',
      `${root}\t${root}\t${RDF_TYPE}\t<${CRM}E22_Human-Made_Object>`,
      `${root}\t${root}\t${LABEL}\t"Vaas\\tmet \\"tab\\""@NL`,
      `${root}\t${root}\t<${CRM}P43_has_dimension>\t_:d`,
      `${root}\t_:d\t<${CRM}P90_has_value>\t6.70`,
      `${root}\t_:d\t<http://x/int>\t-3`,
      `${root}\t_:d\t<http://x/double>\t1.5E3`,
      `${root}\t_:d\t<http://x/bool>\ttrue`,
      `${root}\t_:d\t<http://x/typed>\t"2024"^^<${XSD}gYear>`,
      '',
    ].join('\n');
    const nquads = [
      objectType,
      `${root} ${LABEL} "Vaas\\tmet \\"tab\\""@NL .`,
      `${root} <${CRM}P43_has_dimension> _:d .`,
      `_:d <${CRM}P90_has_value> "6.70"^^<${XSD}decimal> .`,
      `_:d <http://x/int> "-3"^^<${XSD}integer> .`,
      `_:d <http://x/double> "1.5E3"^^<${XSD}double> .`,
      `_:d <http://x/bool> "true"^^<${XSD}boolean> .`,
      `_:d <http://x/typed> "2024"^^<${XSD}gYear> .`,
    ].join('\n');
    const graphs = parseRecordRows(tsv);
    expect([...graphs.keys()]).toEqual([ROOT]);
    expect(JSON.stringify(frameRecordNodes(graphs.get(ROOT)!, ROOT, CONTEXT))).toBe(JSON.stringify(frameRecordGraph(nquads, ROOT, CONTEXT)));
  });

  it('keeps each row with its own record, also when records take turns, and refuses other answers', () => {
    const other = '<http://x/object/2>';
    const tsv = ['?record\t?s\t?p\t?o', `${root}\t${root}\t${LABEL}\t"a"`, `${other}\t${other}\t${LABEL}\t"b"`, `${root}\t${root}\t${LABEL}\t"c"`].join('\n');
    const graphs = parseRecordRows(tsv);
    expect([...graphs.keys()]).toEqual([ROOT, 'http://x/object/2']);
    expect(frameRecordNodes(graphs.get(ROOT)!, ROOT, CONTEXT)['rdfs:label']).toEqual(['a', 'c']);
    expect(() => parseRecordRows('?s\t?p\t?o\n')).toThrow(/header/);
    expect(() => parseRecordRows(`?record\t?s\t?p\t?o\n${root}\t${root}\t${LABEL}\tbare`)).toThrow(/expected a term/);
    expect(() => parseRecordRows(`?record\t?s\t?p\t?o\n${root} ${root}\t${LABEL}\t"a"`)).toThrow(/expected a tab/);
  });

  it('gives, for a page of every public demo object, the records that the single-record CONSTRUCT gives', async () => {
    const { store, queries, iris } = demo.ctx;
    const objects = sourceObjects(demo.data).filter((o) => o.public && o.healthy && o.state.kind === 'current').map((o) => iris.object(o.objectNumber));
    for (let start = 0; start < objects.length; start += 100) {
      const page = objects.slice(start, start + 100);
      const tsv = await store.query(queries.bind('records/page-records', page.map((record) => ({ record }))), { format: 'text/tab-separated-values' });
      const graphs = parseRecordRows(tsv);
      expect(graphs.size).toBe(page.length);
      for (const iri of page) {
        const single = frameRecordGraph(await store.query(queries.bind('records/record', { record: iri, admin: iris.adminGraph }), { format: 'application/n-quads' }), iri, CONTEXT);
        expect([iri, JSON.stringify(frameRecordNodes(graphs.get(iri)!, iri, CONTEXT))]).toEqual([iri, JSON.stringify(single)]);
      }
    }
  }, 180_000);
});
