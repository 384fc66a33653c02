/**
 * Agent, exhibition and concept graphs (spec record tables; docs/graph-model.md), written out by hand
 * from the source-mini fixture and compared up to blank-node renaming.
 */
import { isomorphic } from 'rdf-isomorphic';
import type { Quad } from 'n3';
import {
  BASE,
  copyFixture,
  fixtureRecord,
  graphQuads,
  harvestToText,
  parseNQuads,
  parseTurtle,
  quadLine,
  removeCopy,
  replaceLine,
  TURTLE_PREFIXES,
} from '../fixtures/source-mini/harvest-fixture.js';
import { RELATION_PROPERTY } from '../../src/kinds/agents/graph.js';
import { NS } from '../../src/vocab/namespaces.js';
import { RELATION_TYPES, type RelationType } from '../../src/harvest/schema.js';

const PREFIXES = TURTLE_PREFIXES;
const HARVESTED = '"2024-04-28T10:12:06Z"^^xsd:dateTime';
const yearSpan = (y: number): string =>
  `[ a crm:E52_Time-Span ; rdfs:label "${y}" ; crm:P82a_begin_of_the_begin "${y}"^^xsd:gYear ; crm:P82b_end_of_the_end "${y}"^^xsd:gYear ]`;

let publicQuads: Quad[];
let nonPublicQuads: Quad[];
let publicText: string;
let dir: string;

beforeAll(async () => {
  dir = await copyFixture();
  const result = await harvestToText(dir, { validateImages: false });
  publicText = result.publicText;
  publicQuads = parseNQuads(result.publicText);
  nonPublicQuads = parseNQuads(result.nonPublicText);
});
afterAll(() => removeCopy(dir));

function expectGraph(quads: Quad[], graph: string, turtle: string): void {
  const actual = graphQuads(quads, graph);
  const expected = parseTurtle(PREFIXES + turtle);
  const lines = (qs: Quad[]): Set<string> => new Set(qs.map(quadLine));
  const [a, e] = [lines(actual), lines(expected)];
  expect({ missing: [...e].filter((l) => !a.has(l)), unexpected: [...a].filter((l) => !e.has(l)) }).toEqual({ missing: [], unexpected: [] });
  expect(isomorphic(actual, expected)).toBe(true);
}

/** Objects of `subject predicate ?o` in one graph. */
function objectsOf(quads: Quad[], graph: string, subject: string, predicate: string): string[] {
  return quads
    .filter((q) => q.graph.value === graph && q.subject.value === subject && q.predicate.value === predicate)
    .map((q) => q.object.value)
    .sort();
}

const CRM = 'http://www.cidoc-crm.org/cidoc-crm/';
const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
const SAME_AS = 'https://www.w3.org/2002/07/owl#sameAs';
const SAME_AS_STANDARD = 'http://www.w3.org/2002/07/owl#sameAs';
const PARTICIPATED_IN = `${CRM}P11i_participated_in`;
const agentIri = (pid: string): string => `${BASE}/v2/id/agent/${pid}`;
const exhibitionIri = (pid: string): string => `${BASE}/v2/id/exhibition/${pid}`;
const relationType = (r: string): string => `${BASE}/v2/id/type/relation/${r}`;

describe('Agent graph (spec "Agent record")', () => {
  it('maps the agent that uses every source field to exactly the documented graph', () => {
    const A = agentIri('DMG-A-03731');
    expectGraph(
      publicQuads,
      A,
      `
agent:DMG-A-03731 a crm:E21_Person ;
  rdfs:label "Ettore Sottsass" ;
  prov:generatedAtTime ${HARVESTED} ;
  dcterms:modified "2024-03-15"^^xsd:date ;
  owl:sameAs <http://www.wikidata.org/entity/Q366584> ; owlstd:sameAs <http://www.wikidata.org/entity/Q366584> ;
  crm:P1_is_identified_by <${A}/appellation/preferred> , <${A}/identifier/intern> ,
    [ a crm:E41_Appellation ; rdfs:label "Ettore Sottsass jr." ] ,
    [ a crm:E41_Appellation ; rdfs:label "Ettore Sottsass" ; crm:P72_has_language lang:NLD ;
      crm:P129i_is_subject_of <https://nl.wikipedia.org/wiki/Ettore_Sottsass> ] ,
    [ a crm:E41_Appellation ; rdfs:label "Ettore Sottsass (designer)" ; crm:P72_has_language lang:ENG ;
      crm:P129i_is_subject_of <https://en.wikipedia.org/wiki/Ettore_Sottsass> ] ;
  crm:P2_has_type <http://publications.europa.eu/resource/authority/human-sex/MALE> ;
  person:citizenship <http://publications.europa.eu/resource/authority/country/ITA> ;
  crm:P98i_was_born <${A}/birth> ;
  crm:P100i_died_in <${A}/death> ;
  crm:P67i_is_referred_to_by [ a crm:E33_Linguistic_Object ;
    rdfs:label "Italiaans architect en ontwerper.\\nMedeoprichter van \\"Memphis\\"." ;
    crm:P2_has_type aat:300080091 ; crm:P72_has_language lang:NLD ;
    crm:P129i_is_subject_of <https://nl.wikipedia.org/wiki/Ettore_Sottsass> ;
    dcterms:license <https://creativecommons.org/licenses/by-sa/4.0/> ] ;
  foaf:thumbnail <https://upload.wikimedia.org/wikipedia/commons/4/4e/Ettore_Sottsass.jpg> ;
  crm:P107i_is_current_or_former_member_of agent:DMG-A-00523 ;
  crm:P107_has_current_or_former_member agent:DMG-A-00162 ;
  crm:P152_has_parent agent:DMG-A-00600 ;
  crm:P11i_participated_in exh:TE_1993-009 , exh:TE_2020-001 .

<${A}/appellation/preferred> a crm:E41_Appellation ; rdfs:label "Ettore Sottsass" .
<https://nl.wikipedia.org/wiki/Ettore_Sottsass> a crm:E73_Information_Object .
<https://en.wikipedia.org/wiki/Ettore_Sottsass> a crm:E73_Information_Object .
<${A}/identifier/intern> a crm:E42_Identifier ; rdfs:label "DMG-A-03731" ; crm:P2_has_type type:intern-referentienummer .
type:intern-referentienummer a crm:E55_Type ; rdfs:label "Intern referentienummer" .
<http://publications.europa.eu/resource/authority/human-sex/MALE> a crm:E55_Type ; rdfs:label "mannelijk" .
<http://publications.europa.eu/resource/authority/country/ITA> a crm:E53_Place ;
  rdfs:label "Italië"@nl , "Italy"@en , "Italie"@fr .
<${A}/birth> a crm:E67_Birth ; crm:P4_has_time-span ${yearSpan(1917)} ; crm:P7_took_place_at <https://sws.geonames.org/2775220/> .
<https://sws.geonames.org/2775220/> a crm:E53_Place ; rdfs:label "Innsbruck" .
<${A}/death> a crm:E69_Death ; crm:P4_has_time-span ${yearSpan(2007)} ; crm:P7_took_place_at <https://sws.geonames.org/3173435/> .
<https://sws.geonames.org/3173435/> a crm:E53_Place ; rdfs:label "Milaan" .
aat:300080091 a crm:E55_Type ; rdfs:label "description" .
agent:DMG-A-00523 a crm:E21_Person ; crm:P2_has_type <${relationType('spouse_of')}> .
<${relationType('spouse_of')}> a crm:E55_Type ; rdfs:label "spouse" .
agent:DMG-A-00162 a crm:E74_Group ; crm:P2_has_type <${relationType('founded')}> .
<${relationType('founded')}> a crm:E55_Type ; rdfs:label "founded" .
agent:DMG-A-00600 a crm:E39_Actor .
# Curator of TE_1993-009 (which also shows 1987-1105, created by this agent: still one link); creator of
# 1987-1105, shown by TE_2020-001. The private TE_2003-010 shows 1987-1105 too but is not linked.
exh:TE_1993-009 a crm:E7_Activity ; rdfs:label "Design in Italia" .
exh:TE_2020-001 a crm:E7_Activity ; rdfs:label "Kleureyck. Van Eycks kleuren in design" ;
  owl:sameAs <https://stad.gent/id/tentoonstelling/530003726> ; owlstd:sameAs <https://stad.gent/id/tentoonstelling/530003726> .
`,
    );
  });

  it('maps a group with relations on both sides and exhibition participation through a production', () => {
    const A = agentIri('DMG-A-00162');
    expectGraph(
      publicQuads,
      A,
      `
agent:DMG-A-00162 a crm:E74_Group ;
  rdfs:label "Memphis" ;
  prov:generatedAtTime ${HARVESTED} ;
  dcterms:modified "2024-04-01"^^xsd:date ;
  owl:sameAs <https://stad.gent/id/agent/530000534> , <http://vocab.getty.edu/ulan/500125093> , <https://www.wikidata.org/entity/Q1273221> ;
  owlstd:sameAs <https://stad.gent/id/agent/530000534> , <http://vocab.getty.edu/ulan/500125093> , <https://www.wikidata.org/entity/Q1273221> ;
  crm:P1_is_identified_by <${A}/appellation/preferred> , <${A}/identifier/intern> ;
  crm:P107_has_current_or_former_member agent:DMG-A-00523 ;
  crm:P107i_is_current_or_former_member_of agent:DMG-A-03731 ;
  crm:P11i_participated_in exh:TE_1993-009 , exh:TE_2020-001 .

<${A}/appellation/preferred> a crm:E41_Appellation ; rdfs:label "Memphis" .
<${A}/identifier/intern> a crm:E42_Identifier ; rdfs:label "DMG-A-00162" ; crm:P2_has_type type:intern-referentienummer .
type:intern-referentienummer a crm:E55_Type ; rdfs:label "Intern referentienummer" .
# employer_of: the related agent is the employee; founded_by (from Sottsass's "founded"): Sottsass is the founder.
agent:DMG-A-00523 a crm:E21_Person ; crm:P2_has_type <${relationType('employer_of')}> .
<${relationType('employer_of')}> a crm:E55_Type ; rdfs:label "employee" .
agent:DMG-A-03731 a crm:E21_Person ; crm:P2_has_type <${relationType('founded_by')}> .
<${relationType('founded_by')}> a crm:E55_Type ; rdfs:label "founder" .
# Producer of 1987-1105, which TE_1993-009 and TE_2020-001 show (and the private TE_2003-010: not linked).
exh:TE_1993-009 a crm:E7_Activity ; rdfs:label "Design in Italia" .
exh:TE_2020-001 a crm:E7_Activity ; rdfs:label "Kleureyck. Van Eycks kleuren in design" ;
  owl:sameAs <https://stad.gent/id/tentoonstelling/530003726> ; owlstd:sameAs <https://stad.gent/id/tentoonstelling/530003726> .
`,
    );
  });

  it('labels the relation type of the related node with the qualifier of the spec table, keeping the relation in the IRI', () => {
    const typeLabel = (graph: string, relation: string): string[] => objectsOf(publicQuads, agentIri(graph), relationType(relation), LABEL);
    const qualifierOf = (graph: string, related: string): string[] => objectsOf(publicQuads, agentIri(graph), agentIri(related), `${CRM}P2_has_type`);
    // Pivano's own relations: spouse_of Sottsass, student_of Ettore Sottsass sr.; Memphis's employer_of seen from her side.
    expect(qualifierOf('DMG-A-00523', 'DMG-A-03731')).toEqual([relationType('spouse_of')]);
    expect(typeLabel('DMG-A-00523', 'spouse_of')).toEqual(['spouse']);
    expect(qualifierOf('DMG-A-00523', 'DMG-A-00600')).toEqual([relationType('student_of')]);
    expect(typeLabel('DMG-A-00523', 'student_of')).toEqual(['mentor']);
    expect(qualifierOf('DMG-A-00523', 'DMG-A-00162')).toEqual([relationType('employee_of')]);
    expect(typeLabel('DMG-A-00523', 'employee_of')).toEqual(['employee']);
    // The inverse of student_of in the other graph: mentor_of, the related agent (Pivano) is the student.
    expect(qualifierOf('DMG-A-00600', 'DMG-A-00523')).toEqual([relationType('mentor_of')]);
    expect(typeLabel('DMG-A-00600', 'mentor_of')).toEqual(['student']);
    const mentor = agentIri('DMG-A-00600');
    expect(objectsOf(publicQuads, mentor, mentor, `${CRM}P107_has_current_or_former_member`)).toEqual([agentIri('DMG-A-00523')]);
    // No relation type label anywhere is the relation name with spaces any more.
    const relationLabels = publicQuads.filter((q) => q.subject.value.startsWith(`${BASE}/v2/id/type/relation/`) && q.predicate.value === LABEL);
    expect(relationLabels.length).toBeGreaterThan(0);
    for (const q of relationLabels) expect(q.object.value).not.toMatch(/ /);
  });

  it('has a qualifier per relation exactly as the spec table gives it (none for parent_of / child_of)', () => {
    const P107 = `<${CRM}P107_has_current_or_former_member>`;
    const P107i = `<${CRM}P107i_is_current_or_former_member_of>`;
    const table: Record<RelationType, [string, string | undefined]> = {
      parent_of: [`<${CRM}P152i_is_parent_of>`, undefined],
      child_of: [`<${CRM}P152_has_parent>`, undefined],
      spouse_of: [P107i, 'spouse'],
      sibling_of: [P107i, 'sibling'],
      employer_of: [P107, 'employee'],
      employee_of: [P107i, 'employee'],
      mentor_of: [P107, 'student'],
      student_of: [P107i, 'mentor'],
      collaborator: [P107i, 'collaborator'],
      member_of: [P107i, 'member'],
      has_member: [P107, 'member'],
      founded: [P107, 'founded'],
      founded_by: [P107i, 'founder'],
    };
    expect(Object.keys(RELATION_PROPERTY).sort()).toEqual([...RELATION_TYPES].sort());
    for (const type of RELATION_TYPES) {
      expect([type, RELATION_PROPERTY[type].property, RELATION_PROPERTY[type].qualifier]).toEqual([type, ...table[type]]);
    }
  });

  it('classifies by the registrar kind first, then the knowledge-base kind, else as unknown', () => {
    const typeOf = (pid: string): string[] =>
      objectsOf(publicQuads, agentIri(pid), agentIri(pid), 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type');
    expect(typeOf('DMG-A-03731')).toEqual([`${CRM}E21_Person`]); // registrar person beats knowledge-base organisation
    expect(typeOf('DMG-A-00162')).toEqual([`${CRM}E74_Group`]);
    expect(typeOf('DMG-A-00523')).toEqual([`${CRM}E21_Person`]);
    expect(typeOf('DMG-A-00600')).toEqual([`${CRM}E39_Actor`]);
  });

  it('gives a gender only to persons', () => {
    // DMG-A-00600 has gender MALE in the source but no classification, so it is not a person.
    expect(objectsOf(publicQuads, agentIri('DMG-A-00600'), agentIri('DMG-A-00600'), `${CRM}P2_has_type`)).toEqual([]);
    expect(objectsOf(publicQuads, agentIri('DMG-A-00523'), agentIri('DMG-A-00523'), `${CRM}P2_has_type`)).toEqual([
      'http://publications.europa.eu/resource/authority/human-sex/FEMALE',
    ]);
  });

  it('writes each relation into the other agent graph with the inverse relation', () => {
    const memphis = agentIri('DMG-A-00162');
    const sottsass = agentIri('DMG-A-03731');
    expect(objectsOf(publicQuads, memphis, memphis, `${CRM}P107i_is_current_or_former_member_of`)).toEqual([sottsass]);
    expect(objectsOf(publicQuads, memphis, sottsass, `${CRM}P2_has_type`)).toEqual([relationType('founded_by')]);
    expect(objectsOf(publicQuads, memphis, relationType('founded_by'), 'http://www.w3.org/2000/01/rdf-schema#label')).toEqual([
      'founder',
    ]);
    const parent = agentIri('DMG-A-00600');
    expect(objectsOf(publicQuads, parent, parent, `${CRM}P152i_is_parent_of`)).toEqual([sottsass]);
    expect(objectsOf(publicQuads, parent, sottsass, `${CRM}P2_has_type`)).toEqual([]);
  });

  it('writes a relation recorded on both sides once per graph', () => {
    const pivano = agentIri('DMG-A-00523');
    const sottsass = agentIri('DMG-A-03731');
    const edges = publicQuads.filter((q) => q.graph.value === pivano && q.object.value === sottsass && q.subject.value === pivano);
    expect(edges.map((q) => q.predicate.value)).toEqual([`${CRM}P107i_is_current_or_former_member_of`]);
    expect(objectsOf(publicQuads, pivano, sottsass, `${CRM}P2_has_type`)).toEqual([relationType('spouse_of')]);
  });

  it('leaves relations to private agents out of public graphs and keeps them in the private graph', () => {
    const hidden = agentIri('DMG-A-00700');
    expect(publicQuads.some((q) => q.subject.value === hidden || q.object.value === hidden)).toBe(false);
    expect(objectsOf(nonPublicQuads, hidden, hidden, `${CRM}P107i_is_current_or_former_member_of`)).toEqual([agentIri('DMG-A-03731')]);
  });
});

describe('Agent exhibition participation (crm:P11i_participated_in)', () => {
  const participation = (pid: string): string[] => objectsOf(publicQuads, agentIri(pid), agentIri(pid), PARTICIPATED_IN);

  it('links a curator to the public exhibition it curated', () => {
    expect(participation('DMG-A-03731')).toContain(exhibitionIri('TE_1993-009'));
  });

  it('links the agents of a production or creation of a servable object to the public exhibitions showing it', () => {
    expect(participation('DMG-A-03731')).toContain(exhibitionIri('TE_2020-001')); // creation of 1987-1105
    // Production of 1987-1105, which both public exhibitions show.
    expect(participation('DMG-A-00162')).toEqual([exhibitionIri('TE_1993-009'), exhibitionIri('TE_2020-001')]);
  });

  it('never links a private exhibition, nor one through an object that is not served', () => {
    const everyLink = [...publicQuads, ...nonPublicQuads].filter((q) => q.predicate.value === PARTICIPATED_IN);
    expect(everyLink.length).toBeGreaterThan(0);
    // TE_2003-010 is private: it shows 1987-1105 and names DMG-A-00523 as curator.
    expect(everyLink.filter((q) => q.object.value === exhibitionIri('TE_2003-010'))).toEqual([]);
    expect(publicQuads.some((q) => q.object.value === exhibitionIri('TE_2003-010') || q.subject.value === exhibitionIri('TE_2003-010'))).toBe(false);
    // DMG-A-00523 produced 0935 (unhealthy) and DMG-A-00600 created 1990-0060_2-5 (private), both shown by TE_2020-001.
    expect(participation('DMG-A-00523')).toEqual([]);
    expect(participation('DMG-A-00600')).toEqual([]);
    expect(objectsOf(publicQuads, agentIri('DMG-A-03731'), agentIri('DMG-A-03731'), PARTICIPATED_IN)).toEqual([
      exhibitionIri('TE_1993-009'),
      exhibitionIri('TE_2020-001'),
    ]);
  });

  it('writes one link when the agent both curated the exhibition and made an object it shows', () => {
    const line = `<${agentIri('DMG-A-03731')}> <${PARTICIPATED_IN}> <${exhibitionIri('TE_1993-009')}> <${agentIri('DMG-A-03731')}> .`;
    expect(publicText.split('\n').filter((l) => l === line)).toHaveLength(1);
  });

  it('describes each exhibition node with the label of the exhibition graph and its sameAs', () => {
    for (const pid of ['TE_1993-009', 'TE_2020-001']) {
      const E = exhibitionIri(pid);
      const A = agentIri('DMG-A-03731');
      expect(objectsOf(publicQuads, A, E, 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type')).toEqual([`${CRM}E7_Activity`]);
      expect(objectsOf(publicQuads, A, E, LABEL)).toEqual(objectsOf(publicQuads, E, E, LABEL));
      expect(objectsOf(publicQuads, A, E, SAME_AS)).toEqual(objectsOf(publicQuads, E, E, SAME_AS));
      expect(objectsOf(publicQuads, A, E, SAME_AS_STANDARD)).toEqual(objectsOf(publicQuads, E, E, SAME_AS));
    }
  });
});

describe('owl:sameAs with both namespaces', () => {
  it('states every sameAs link with the spec (https) and the standard (http) predicate, in every graph', () => {
    const all = [...publicQuads, ...nonPublicQuads];
    const key = (q: Quad): string => `${q.graph.value} ${q.subject.value} ${q.object.value}`;
    const spec = all.filter((q) => q.predicate.value === SAME_AS).map(key).sort();
    const standard = all.filter((q) => q.predicate.value === SAME_AS_STANDARD).map(key).sort();
    expect(spec.length).toBeGreaterThan(20);
    expect(standard).toEqual(spec);
    // Records, copied concepts, agents, exhibitions and shown objects all carry both.
    for (const subject of [agentIri('DMG-A-00162'), exhibitionIri('TE_2020-001'), `${BASE}/v2/id/concept/530000049`, `${BASE}/v2/id/object/1987-1105`]) {
      expect(standard.some((k) => k.split(' ')[1] === subject)).toBe(true);
    }
  });
});

describe('Exhibition graph (spec "Exhibition record")', () => {
  it('maps the exhibition that uses every source field to exactly the documented graph', () => {
    const E = `${BASE}/v2/id/exhibition/TE_2020-001`;
    const assets = 'https://assets.designmuseumgent.be/TE_2020-001';
    const pixels = (type: string, value: number): string =>
      `[ a crm:E54_Dimension ; crm:P2_has_type type:${type} ; crm:P90_has_value "${value}"^^xsd:double ; crm:P91_has_unit aat:300266190 ]`;
    expectGraph(
      publicQuads,
      E,
      `
exh:TE_2020-001 a crm:E7_Activity ;
  rdfs:label "Kleureyck. Van Eycks kleuren in design" ;
  prov:generatedAtTime ${HARVESTED} ;
  dcterms:modified "2024-04-01"^^xsd:date ;
  owl:sameAs <https://stad.gent/id/tentoonstelling/530003726> ; owlstd:sameAs <https://stad.gent/id/tentoonstelling/530003726> ;
  crm:P2_has_type aat:300054755 ;
  crm:P1_is_identified_by <${E}/identifier/intern> ,
    [ a crm:E41_Appellation ; rdfs:label "Kleureyck. Van Eycks kleuren in design" ; crm:P72_has_language lang:NLD ] ,
    [ a crm:E41_Appellation ; rdfs:label "Kleureyck. Van Eyck's colours in design" ; crm:P72_has_language lang:ENG ] ;
  crm:P4_has_time-span [ a crm:E52_Time-Span ; rdfs:label "2020-03-12/2020-07-12" ;
    crm:P82a_begin_of_the_begin "2020-03-12"^^xsd:date ; crm:P82b_end_of_the_end "2020-07-12"^^xsd:date ] ;
  crm:P7_took_place_at <http://www.wikidata.org/entity/Q1809071> ;
  crm:P14_carried_out_by [ a crm:E39_Actor ; rdfs:label "Siegrid Demyttenaere" ] ;
  crm:P16_used_specific_object obj:1987-1105 , obj:1990-0060_1-5 ;
  crm:P67i_is_referred_to_by [ a crm:E33_Linguistic_Object ; rdfs:label "Kleur in design." ;
    crm:P2_has_type aat:300080091 ; crm:P72_has_language lang:NLD ] ;
  crm:P129i_is_subject_of <https://lib.ugent.be/catalog/rug01:002845> , <https://www.youtube.com/watch?v=kleureyck> ,
    [ a crm:E73_Information_Object ; crm:P2_has_type aat:300048715 ; crm:P102_has_title [ a crm:E35_Title ; rdfs:label "Folder" ] ] ;
  crm:P65_shows_visual_item <${assets}/poster.jpg> ;
  crm:P138i_has_representation <${assets}/zaal%201.jpg> , <${assets}/zaal2.jpg> .

aat:300054755 a crm:E55_Type ; rdfs:label "Exhibition" .
<${E}/identifier/intern> a crm:E42_Identifier ; rdfs:label "TE_2020-001" ; crm:P2_has_type type:intern-referentienummer .
type:intern-referentienummer a crm:E55_Type ; rdfs:label "Intern referentienummer" .
<http://www.wikidata.org/entity/Q1809071> a crm:E53_Place ; rdfs:label "Design Museum Gent" .
obj:1987-1105 a crm:E22_Human-Made_Object ; owl:sameAs <https://stad.gent/id/mensgemaaktobject/dmg/530012345> ;
  owlstd:sameAs <https://stad.gent/id/mensgemaaktobject/dmg/530012345> .
obj:1990-0060_1-5 a crm:E22_Human-Made_Object ; owl:sameAs <https://stad.gent/id/mensgemaaktobject/dmg/530012346> ;
  owlstd:sameAs <https://stad.gent/id/mensgemaaktobject/dmg/530012346> .
aat:300080091 a crm:E55_Type ; rdfs:label "description" .
<https://lib.ugent.be/catalog/rug01:002845> a crm:E73_Information_Object ; crm:P2_has_type aat:300048715 ;
  crm:P102_has_title [ a crm:E35_Title ; rdfs:label "Kleureyck catalogus" ] ; crm:P4_has_time-span ${yearSpan(2020)} .
aat:300048715 a crm:E55_Type ; rdfs:label "publication" .
<https://www.youtube.com/watch?v=kleureyck> a crm:E73_Information_Object ; crm:P2_has_type aat:300263419 ;
  crm:P102_has_title [ a crm:E35_Title ; rdfs:label "Trailer" ] ; crm:P4_has_time-span ${yearSpan(2020)} .
aat:300263419 a crm:E55_Type ; rdfs:label "video" .
<${assets}/poster.jpg> a crm:E36_Visual_Item ; crm:P2_has_type aat:300027221 .
aat:300027221 a crm:E55_Type ; rdfs:label "poster" .
<${assets}/zaal%201.jpg> a crm:E36_Visual_Item ; crm:P2_has_type aat:300210730 ; rdfs:label "zaal 1.jpg" ;
  crm:P43_has_dimension ${pixels('breedte', 1600)} , ${pixels('hoogte', 1067)} .
<${assets}/zaal2.jpg> a crm:E36_Visual_Item ; crm:P2_has_type aat:300210730 ; rdfs:label "zaal2.jpg" .
aat:300210730 a crm:E55_Type ; rdfs:label "exhibition view" .
aat:300266190 a crm:E58_Measurement_Unit ; rdfs:label "pixels" .
type:breedte a crm:E55_Type ; rdfs:label "breedte" .
type:hoogte a crm:E55_Type ; rdfs:label "hoogte" .
`,
    );
  });

  it('labels by the source title without a Dutch title and names a known curator by agent IRI', () => {
    const E = `${BASE}/v2/id/exhibition/TE_1993-009`;
    const label = 'http://www.w3.org/2000/01/rdf-schema#label';
    expect(objectsOf(publicQuads, E, E, label)).toEqual(['Design in Italia']);
    expect(objectsOf(publicQuads, E, E, `${CRM}P14_carried_out_by`)).toEqual([agentIri('DMG-A-03731')]);
    expect(objectsOf(publicQuads, E, agentIri('DMG-A-03731'), label)).toEqual(['E. Sottsass']);
    expect(objectsOf(publicQuads, E, E, `${CRM}P7_took_place_at`)).toEqual(['http://www.wikidata.org/entity/Q1296']);
    expect(objectsOf(publicQuads, E, E, `${CRM}P1_is_identified_by`)).toEqual([`${E}/identifier/intern`]);
  });

  it('keeps one node per installation view when the source lists a view twice', async () => {
    const copy = await copyFixture();
    try {
      const record = await fixtureRecord('exhibitions.jsonl', 1);
      const views = record.views as { url: string }[];
      await replaceLine(copy, 'exhibitions.jsonl', 1, JSON.stringify({ ...record, views: [...views, { ...views[0]!, fileName: 'again.jpg' }] }));
      const { publicText: text } = await harvestToText(copy, { validateImages: false });
      const E = `${BASE}/v2/id/exhibition/TE_2020-001`;
      const quads = graphQuads(parseNQuads(text), E);
      const shown = quads.filter((q) => q.subject.value === E && q.predicate.value === `${NS.crm}P138i_has_representation`).map((q) => q.object.value);
      expect(shown).toHaveLength(views.length);
      // The first view (its URL percent-encoded in the graph) keeps its own file name, not the repeat's.
      const first = shown.find((url) => decodeURI(url) === decodeURI(views[0]!.url));
      const labels = quads.filter((q) => q.subject.value === first && q.predicate.value === `${NS.rdfs}label`);
      expect(labels.map((q) => q.object.value)).toEqual([(record.views as { fileName: string }[])[0]!.fileName]);
    } finally {
      await removeCopy(copy);
    }
  });
});

describe('Concept graph (spec "Concept record")', () => {
  it('maps a concept with labels, scope notes and an internal broader term to exactly the documented graph', () => {
    expectGraph(
      publicQuads,
      `${BASE}/v2/id/concept/530000049`,
      `
concept:530000049 a crm:E55_Type ;
  rdfs:label "pepervat" ;
  prov:generatedAtTime ${HARVESTED} ;
  dcterms:modified "2024-04-01"^^xsd:date ;
  owl:sameAs <https://stad.gent/id/concept/530000049> , <http://vocab.getty.edu/aat/300198823> ;
  owlstd:sameAs <https://stad.gent/id/concept/530000049> , <http://vocab.getty.edu/aat/300198823> ;
  skos:prefLabel "pepervat"@nl , "poivrier"@fr , "pepper pot"@en ;
  skos:scopeNote "Vat voor peper."@nl , "Container for pepper."@en ;
  skos:broader concept:530000100 .
concept:530000100 rdfs:label "vaatwerk" ; owl:sameAs <https://stad.gent/id/concept/530000100> ;
  owlstd:sameAs <https://stad.gent/id/concept/530000100> .
`,
    );
  });

  it('derives narrower terms from every broader list, resolving external URIs of thesaurus concepts inward', () => {
    expectGraph(
      publicQuads,
      `${BASE}/v2/id/concept/530000100`,
      `
concept:530000100 a crm:E55_Type ;
  rdfs:label "vaatwerk" ;
  prov:generatedAtTime ${HARVESTED} ;
  dcterms:modified "2023-11-30"^^xsd:date ;
  owl:sameAs <https://stad.gent/id/concept/530000100> ; owlstd:sameAs <https://stad.gent/id/concept/530000100> ;
  skos:prefLabel "vaatwerk"@nl ;
  skos:scopeNote "Vaten en schalen."@nl ;
  skos:broader <http://vocab.getty.edu/aat/300045611> ;
  skos:narrower concept:530000049 , concept:530000101 .
<http://vocab.getty.edu/aat/300045611> rdfs:label "containers (receptacles)" .
concept:530000049 rdfs:label "pepervat" ;
  owl:sameAs <https://stad.gent/id/concept/530000049> , <http://vocab.getty.edu/aat/300198823> ;
  owlstd:sameAs <https://stad.gent/id/concept/530000049> , <http://vocab.getty.edu/aat/300198823> .
concept:530000101 rdfs:label "theepot" .
`,
    );
    // 530000101 names its broader term by the city datahub URI of 530000100: the internal IRI is used.
    const child = `${BASE}/v2/id/concept/530000101`;
    expect(objectsOf(publicQuads, child, child, 'http://www.w3.org/2004/02/skos/core#broader')).toEqual([
      `${BASE}/v2/id/concept/530000100`,
    ]);
  });
});
