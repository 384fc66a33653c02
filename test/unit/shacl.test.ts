/**
 * ontology/shapes.ttl against the harvest: every record graph of the source-mini harvest conforms, and
 * broken graphs fail with a report that names the node, the property and what is wrong.
 */
import { DataFactory, type Quad } from 'n3';
import { BASE, copyFixture, graphNames, graphQuads, harvestToText, parseNQuads, removeCopy } from '../fixtures/source-mini/harvest-fixture.js';
import { shapesAndOntology, validateRecordGraph as validate } from '../helpers/shacl.js';

const { namedNode, quad, literal } = DataFactory;
const CRM = 'http://www.cidoc-crm.org/cidoc-crm/';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

let all: Quad[];
let ontology: Quad[];

beforeAll(async () => {
  ontology = (await shapesAndOntology()).ontology;
  const dir = await copyFixture();
  try {
    const { publicText, nonPublicText } = await harvestToText(dir, { validateImages: false });
    all = parseNQuads(publicText + nonPublicText);
  } finally {
    await removeCopy(dir);
  }
});

describe('SHACL shapes of the stored graph', () => {
  it('accepts every record graph of the fixture harvest', async () => {
    const records = [...graphNames(all)].filter((g) => g !== `${BASE}/graph/admin`);
    expect(records.length).toBe(24);
    const failures: string[] = [];
    for (const record of records) {
      const { conforms, lines } = await validate(record, graphQuads(all, record));
      if (!conforms) failures.push(...lines);
    }
    expect(failures).toEqual([]);
  });

  it('reports a missing label and a wrong time-span datatype on an object, naming node and property', async () => {
    const O = `${BASE}/v2/id/object/1987-1105`;
    const graph = graphQuads(all, O);
    const production = `${O}/production/1`;
    const span = graph.find((q) => q.subject.value === production && q.predicate.value === `${CRM}P4_has_time-span`)?.object;
    if (span === undefined) throw new Error('production 1 has no time-span');
    const broken = graph
      .filter((q) => !(q.subject.value === O && q.predicate.value.endsWith('#label')))
      .map((q) =>
        q.subject.equals(span) && q.predicate.value === `${CRM}P82a_begin_of_the_begin` ? quad(q.subject, q.predicate, literal('1920')) : q,
      );
    const { conforms, lines } = await validate(O, broken);
    expect(conforms).toBe(false);
    const text = lines.join('\n');
    expect(text).toContain(`${O} http://www.w3.org/2000/01/rdf-schema#label: sh:MinCountConstraintComponent`);
    expect(text).toMatch(/crm:P82a_begin_of_the_begin: sh:DatatypeConstraintComponent .*gYear/);
    expect(text).toContain(`${production} crm:P4_has_time-span: sh:NodeConstraintComponent`);
  });

  it('requires exhibition dates as xsd:date', async () => {
    const E = `${BASE}/v2/id/exhibition/TE_2020-001`;
    const broken = graphQuads(all, E).map((q) =>
      q.predicate.value === `${CRM}P82b_end_of_the_end` ? quad(q.subject, q.predicate, literal('2020', namedNode('http://www.w3.org/2001/XMLSchema#gYear'))) : q,
    );
    const { conforms, lines } = await validate(E, broken);
    expect(conforms).toBe(false);
    expect(lines.join('\n')).toMatch(/crm:P82b_end_of_the_end: sh:DatatypeConstraintComponent .*date/);
  });

  it('rejects a second identifier, a second birth and a concept without a Dutch preferred label', async () => {
    const A = `${BASE}/v2/id/agent/DMG-A-03731`;
    const extra = [
      quad(namedNode(A), namedNode(`${CRM}P1_is_identified_by`), namedNode(`${A}/identifier/other`)),
      quad(namedNode(`${A}/identifier/other`), namedNode(RDF_TYPE), namedNode(`${CRM}E42_Identifier`)),
      quad(namedNode(A), namedNode(`${CRM}P98i_was_born`), namedNode(`${A}/birth/2`)),
      quad(namedNode(`${A}/birth/2`), namedNode(RDF_TYPE), namedNode(`${CRM}E67_Birth`)),
    ];
    const agent = await validate(A, [...graphQuads(all, A), ...extra]);
    expect(agent.conforms).toBe(false);
    const text = agent.lines.join('\n');
    expect(text).toContain(`${A} crm:P1_is_identified_by: sh:QualifiedMaxCountConstraintComponent`);
    expect(text).toContain(`${A} crm:P98i_was_born: sh:MaxCountConstraintComponent`);

    const C = `${BASE}/v2/id/concept/530000049`;
    const noDutch = graphQuads(all, C).filter((q) => !(q.predicate.value.endsWith('#prefLabel') && q.object.termType === 'Literal' && q.object.language === 'nl'));
    const concept = await validate(C, noDutch);
    expect(concept.conforms).toBe(false);
    expect(concept.lines.join('\n')).toContain(`${C} http://www.w3.org/2004/02/skos/core#prefLabel: sh:QualifiedMinCountConstraintComponent`);
  });

  it('rejects a sameAs link stated with only one of the two predicates, and an unlabelled participation node', async () => {
    const A = `${BASE}/v2/id/agent/DMG-A-03731`;
    const E = `${BASE}/v2/id/exhibition/TE_1993-009`;
    const graph = graphQuads(all, A);
    const standard = 'http://www.w3.org/2002/07/owl#sameAs';
    expect(graph.filter((q) => q.predicate.value === standard).length).toBeGreaterThan(0);
    expect(graph.some((q) => q.subject.value === A && q.predicate.value === `${CRM}P11i_participated_in` && q.object.value === E)).toBe(true);
    const broken = graph.filter(
      (q) => !(q.subject.value === A && q.predicate.value === standard) && !(q.subject.value === E && q.predicate.value.endsWith('#label')),
    );
    const { conforms, lines } = await validate(A, broken);
    expect(conforms).toBe(false);
    const text = lines.join('\n');
    expect(text).toContain(`${A} https://www.w3.org/2002/07/owl#sameAs: sh:EqualsConstraintComponent`);
    expect(text).toContain(`${A} crm:P11i_participated_in: sh:NodeConstraintComponent`);
  });

  it('declares every class and property of the harvest output in crm-subset.ttl', () => {
    const declared = new Set(ontology.filter((q) => q.predicate.value === RDF_TYPE).map((q) => q.subject.value));
    const used = new Set<string>();
    for (const q of all) {
      if (q.predicate.value !== RDF_TYPE) used.add(q.predicate.value);
      else used.add(q.object.value);
    }
    expect([...used].filter((term) => !declared.has(term)).sort()).toEqual([]);
  });
});
