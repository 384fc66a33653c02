/**
 * docs/graph-model.md "Object graph": the fixture object 1987-1105 uses every field of the source
 * format; its graph is spelled out here by hand and compared up to blank-node renaming.
 */
import { isomorphic } from 'rdf-isomorphic';
import type { Quad } from 'n3';
import {
  BASE,
  copyFixture,
  graphQuads,
  harvestToText,
  parseNQuads,
  parseTurtle,
  quadLine,
  removeCopy,
  startImageServer,
  type HarvestText,
  type ImageServer,
  TURTLE_PREFIXES,
} from '../fixtures/source-mini/harvest-fixture.js';

const PREFIXES = TURTLE_PREFIXES;

/** The expected graph of 1987-1105, written from the fixture line and graph-model.md. */
function expectedObjectGraph(iiif: string): string {
  const O = `${BASE}/v2/id/object/1987-1105`;
  const cc0 = 'https://creativecommons.org/publicdomain/zero/1.0/';
  return `${PREFIXES}
obj:1987-1105 a crm:E22_Human-Made_Object ;
  rdfs:label "Beeldje van een vis in opaalglas" ;
  prov:generatedAtTime "2024-04-28T10:12:06.123+02:00"^^xsd:dateTime ;
  dcterms:modified "2024-04-02"^^xsd:date ;
  owl:sameAs <https://stad.gent/id/mensgemaaktobject/dmg/530012345> ;
  owlstd:sameAs <https://stad.gent/id/mensgemaaktobject/dmg/530012345> ;
  crm:P1_is_identified_by <${O}/identifier/objectnummer> ,
    [ a crm:E41_Appellation ; rdfs:label "Beeldje van een vis in opaalglas" ; crm:P72_has_language lang:NLD ] ,
    [ a crm:E41_Appellation ; rdfs:label "Statuette d'un poisson" ; crm:P72_has_language lang:FRA ] ,
    [ a crm:E41_Appellation ; rdfs:label "Figurine of a \\"fish\\"" ; crm:P72_has_language lang:ENG ] ;
  crm:P2_has_type concept:530000049 ;
  crm:P45_consists_of concept:530006321 , concept:530000999 ;
  crm:P67i_is_referred_to_by
    [ a crm:E33_Linguistic_Object ; rdfs:label "Vis in opaalglas.\\nTweede regel." ; crm:P2_has_type aat:300080091 ; crm:P72_has_language lang:NLD ] ,
    [ a crm:E33_Linguistic_Object ; rdfs:label "Fish in opal glass." ; crm:P2_has_type aat:300080091 ; crm:P72_has_language lang:ENG ] ;
  crm:P50_has_current_keeper <http://www.wikidata.org/entity/Q1809071> ;
  crm:P108i_was_produced_by <${O}/production/1> , <${O}/production/2> ;
  crm:P94i_was_created_by <${O}/creation/1> ;
  crm:P24i_changed_ownership_through <${O}/acquisition> ;
  crm:P43_has_dimension
    [ a crm:E54_Dimension ; crm:P2_has_type type:hoogte ; crm:P90_has_value "13.5"^^xsd:double ; crm:P91_has_unit aat:300379098 ] ,
    [ a crm:E54_Dimension ; crm:P2_has_type type:breedte ; crm:P90_has_value "7.3"^^xsd:double ; crm:P91_has_unit aat:300379098 ] ,
    [ a crm:E54_Dimension ; crm:P2_has_type type:diameter ; crm:P90_has_value "7.3"^^xsd:double ; crm:P91_has_unit aat:300379098 ] ;
  crm:P46_has_component <${O}/part/1> ;
  crm:P46i_forms_part_of obj:1990-0060_0-5 ;
  crm:P106i_forms_part_of concept:530008405 ;
  crm:P12i_was_present_at exh:TE_2020-001 ;
  crm:P129i_is_subject_of <https://api.collectie.gent/iiif/presentation/v2/manifest/dmg:1987-1105> ,
    <https://www.youtube.com/watch?v=fish> , <https://soundcloud.com/dmg/vis> ;
  crm:P138i_has_representation <${iiif}/iiif/3/vis-1/full/max/0/default.jpg> , <${iiif}/iiif/3/vis-2/full/max/0/default.jpg> ;
  schema:image <${iiif}/iiif/3/vis-1/full/max/0/default.jpg> ;
  crm:P15i_was_motivation_of _:project ;
  crm:P55_has_current_location <${BASE}/v2/id/place/collection-presentation> .

<${O}/identifier/objectnummer> a crm:E42_Identifier ; rdfs:label "1987-1105" ; crm:P2_has_type type:objectnummer .
type:objectnummer a crm:E55_Type ; rdfs:label "objectnummer" .

concept:530000049 a crm:E55_Type ; rdfs:label "pepervat" ;
  owl:sameAs <https://stad.gent/id/concept/530000049> , <http://vocab.getty.edu/aat/300198823> ;
  owlstd:sameAs <https://stad.gent/id/concept/530000049> , <http://vocab.getty.edu/aat/300198823> .
concept:530006321 a crm:E57_Material ; rdfs:label "porselein" ; owl:sameAs <http://vocab.getty.edu/aat/300010662> ;
  owlstd:sameAs <http://vocab.getty.edu/aat/300010662> .
# 530000999 is a private concept: the link and its class stay, its label and sameAs are not copied.
concept:530000999 a crm:E57_Material .
concept:530008405 a crm:E78_Curated_Holding ; rdfs:label "Collectie Vandevelde" ;
  owl:sameAs <https://stad.gent/id/concept/530008405> ; owlstd:sameAs <https://stad.gent/id/concept/530008405> .
concept:530000060 a crm:E55_Type ; rdfs:label "vormgieten" .
aat:300080091 a crm:E55_Type ; rdfs:label "description" .
<http://www.wikidata.org/entity/Q1809071> a crm:E39_Actor ; rdfs:label "Design Museum Gent" .

<${O}/production/1> a crm:E12_Production ;
  crm:P14_carried_out_by agent:DMG-A-00162 ;
  crm:P7_took_place_at <https://sws.geonames.org/3173435/> ;
  crm:P32_used_general_technique concept:530000060 ;
  crm:P4_has_time-span [ a crm:E52_Time-Span ; rdfs:label "1920~/1930" ;
    crm:P82a_begin_of_the_begin "1920"^^xsd:gYear ; crm:P82b_end_of_the_end "1930"^^xsd:gYear ] .
<${O}/production/2> a crm:E12_Production .
agent:DMG-A-00162 a crm:E39_Actor ; rdfs:label "Memphis" ;
  owl:sameAs <https://stad.gent/id/agent/530000534> , <http://vocab.getty.edu/ulan/500125093> , <https://www.wikidata.org/entity/Q1273221> ;
  owlstd:sameAs <https://stad.gent/id/agent/530000534> , <http://vocab.getty.edu/ulan/500125093> , <https://www.wikidata.org/entity/Q1273221> .
<https://sws.geonames.org/3173435/> a crm:E53_Place ; rdfs:label "Milaan" .

<${O}/creation/1> a crm:E65_Creation ;
  crm:P14_carried_out_by agent:DMG-A-03731 ;
  crm:P4_has_time-span [ a crm:E52_Time-Span ; rdfs:label "1919" ;
    crm:P82a_begin_of_the_begin "1919"^^xsd:gYear ; crm:P82b_end_of_the_end "1919"^^xsd:gYear ] .
agent:DMG-A-03731 a crm:E39_Actor ; rdfs:label "Ettore Sottsass" ; owl:sameAs <http://www.wikidata.org/entity/Q366584> ;
  owlstd:sameAs <http://www.wikidata.org/entity/Q366584> .

<${O}/acquisition> a crm:E8_Acquisition ;
  crm:P2_has_type <${BASE}/v2/id/type/acquisition/oningeschreven-gevonden> ;
  crm:P4_has_time-span [ a crm:E52_Time-Span ; rdfs:label "1987" ;
    crm:P82a_begin_of_the_begin "1987"^^xsd:gYear ; crm:P82b_end_of_the_end "1987"^^xsd:gYear ] ;
  crm:P7_took_place_at <https://sws.geonames.org/2797656/> ;
  crm:P22_transferred_title_to <http://www.wikidata.org/entity/Q2362442> .
<${BASE}/v2/id/type/acquisition/oningeschreven-gevonden> a crm:E55_Type ; rdfs:label "oningeschreven gevonden" .
<https://sws.geonames.org/2797656/> a crm:E53_Place ; rdfs:label "Gent" .
<http://www.wikidata.org/entity/Q2362442> a crm:E39_Actor ; rdfs:label "Stad Gent" .

type:hoogte a crm:E55_Type ; rdfs:label "hoogte" .
type:breedte a crm:E55_Type ; rdfs:label "breedte" .
type:diameter a crm:E55_Type ; rdfs:label "diameter" .
aat:300379098 a crm:E58_Measurement_Unit ; rdfs:label "cm" .

<${O}/part/1> a crm:E22_Human-Made_Object ; rdfs:label "deksel" ;
  crm:P45_consists_of concept:530006321 ;
  crm:P43_has_dimension [ a crm:E54_Dimension ; crm:P2_has_type type:diameter ; crm:P90_has_value "4.2"^^xsd:double ; crm:P91_has_unit aat:300379098 ] .

obj:1990-0060_0-5 a crm:E22_Human-Made_Object .

exh:TE_2020-001 a crm:E7_Activity ; rdfs:label "Kleureyck. Van Eycks kleuren in design" ;
  owl:sameAs <https://stad.gent/id/tentoonstelling/530003726> ; owlstd:sameAs <https://stad.gent/id/tentoonstelling/530003726> .

<https://api.collectie.gent/iiif/presentation/v2/manifest/dmg:1987-1105> a crm:E73_Information_Object ;
  crm:P2_has_type aat:300417895 ; crm:P102_has_title [ a crm:E35_Title ; rdfs:label "IIIF manifest" ] .
aat:300417895 a crm:E55_Type ; rdfs:label "IIIF manifest" .
<https://www.youtube.com/watch?v=fish> a crm:E73_Information_Object ;
  crm:P2_has_type aat:300263419 ; crm:P102_has_title [ a crm:E35_Title ; rdfs:label "De vis" ] ;
  crm:P4_has_time-span [ a crm:E52_Time-Span ; rdfs:label "2019" ;
    crm:P82a_begin_of_the_begin "2019"^^xsd:gYear ; crm:P82b_end_of_the_end "2019"^^xsd:gYear ] .
aat:300263419 a crm:E55_Type ; rdfs:label "video" .
<https://soundcloud.com/dmg/vis> a crm:E73_Information_Object ;
  crm:P2_has_type aat:300312042 ; crm:P102_has_title [ a crm:E35_Title ; rdfs:label "Audiogids vis" ] .
aat:300312042 a crm:E55_Type ; rdfs:label "audio" .

<${iiif}/iiif/3/vis-1/full/max/0/default.jpg> a crm:E38_Image ;
  foaf:thumbnail <${iiif}/iiif/3/vis-1/full/400,/0/default.jpg> ;
  crm:P3_has_note "Foto: Design Museum Gent" ;
  crm:P104_is_subject_to <${cc0}> ;
  schema:position "1"^^xsd:integer .
<${iiif}/iiif/3/vis-2/full/max/0/default.jpg> a crm:E38_Image ;
  foaf:thumbnail <${iiif}/iiif/3/vis-2/full/400,/0/default.jpg> ;
  crm:P3_has_note "Foto: Lies Willaert" ;
  crm:P104_is_subject_to <http://rightsstatements.org/vocab/InC/1.0/> ;
  schema:position "2"^^xsd:integer .
<${cc0}> a crm:E30_Right .
<http://rightsstatements.org/vocab/InC/1.0/> a crm:E30_Right .

_:project a crm:E7_Activity ;
  crm:P2_has_type aat:300404591 ;
  crm:P102_has_title [ a crm:E35_Title ; rdfs:label "Vis revisited" ] ;
  crm:P129i_is_subject_of <https://example.org/projects/vis> ;
  crm:P4_has_time-span [ a crm:E52_Time-Span ; rdfs:label "2024" ;
    crm:P82a_begin_of_the_begin "2024"^^xsd:gYear ; crm:P82b_end_of_the_end "2024"^^xsd:gYear ] .
<https://example.org/projects/vis> a crm:E73_Information_Object .
aat:300404591 a crm:E55_Type ; rdfs:label "creative project" .

<${BASE}/v2/id/place/collection-presentation> a crm:E53_Place ;
  crm:P2_has_type aat:300054766 ;
  rdfs:label "Collection presentation Design Museum Gent" .
aat:300054766 a crm:E55_Type ; rdfs:label "permanent collection display" .
`;
}

/** Lines (blank nodes blanked) in `a` but not in `b`: the readable part of a failed comparison. */
function missing(a: readonly Quad[], b: readonly Quad[]): string[] {
  const have = new Set(b.map(quadLine));
  return [...new Set(a.map(quadLine))].filter((line) => !have.has(line)).sort();
}

describe('Object graph (docs/graph-model.md)', () => {
  let server: ImageServer;
  let dir: string;
  let result: HarvestText;
  let all: Quad[];

  beforeAll(async () => {
    server = await startImageServer();
    dir = await copyFixture(server.origin);
    result = await harvestToText(dir, { imageHosts: [new URL(server.origin).host] });
    all = parseNQuads(result.publicText);
  });
  afterAll(async () => {
    await server.close();
    await removeCopy(dir);
  });

  it('maps the object that uses every source field to exactly the documented graph', () => {
    const actual = graphQuads(all, `${BASE}/v2/id/object/1987-1105`);
    const expected = parseTurtle(expectedObjectGraph(server.origin));
    expect({ missing: missing(expected, actual), unexpected: missing(actual, expected) }).toEqual({ missing: [], unexpected: [] });
    expect(isomorphic(actual, expected)).toBe(true);
  });

  it('lists only servable members on a koepelrecord and gives each member its koepel', () => {
    const koepel = graphQuads(all, `${BASE}/v2/id/object/1990-0060_0-5`);
    const members = koepel
      .filter((q) => q.predicate.value.endsWith('P106_is_composed_of'))
      .map((q) => q.object.value)
      .sort();
    // 1990-0060_2-5 is private, so the koepel does not name it.
    expect(members).toEqual([`${BASE}/v2/id/object/1987-1105`, `${BASE}/v2/id/object/1990-0060_1-5`]);
    const member = graphQuads(all, `${BASE}/v2/id/object/1990-0060_1-5`);
    expect(member.filter((q) => q.predicate.value.endsWith('P46i_forms_part_of')).map((q) => q.object.value)).toEqual([
      `${BASE}/v2/id/object/1990-0060_0-5`,
    ]);
  });

  it('labels an object without a Dutch title by its first title, and one without titles by its number', () => {
    const label = (n: string): string[] =>
      graphQuads(all, `${BASE}/v2/id/object/${n}`)
        .filter((q) => q.subject.value === `${BASE}/v2/id/object/${n}` && q.predicate.value.endsWith('#label'))
        .map((q) => q.object.value);
    expect(label('TUP-0073')).toEqual(['Pichet Micro+']);
    expect(label('2004-0050')).toEqual(['2004-0050']);
  });

  it('adds no current location to objects that are not on display', () => {
    const graph = graphQuads(all, `${BASE}/v2/id/object/1990-0060_1-5`);
    expect(graph.some((q) => q.predicate.value.endsWith('P55_has_current_location'))).toBe(false);
  });

  it('checks each distinct image once and never contacts a host outside imageHosts', () => {
    const heads = server.requests.filter((r) => r.startsWith('HEAD '));
    // vis-1 (listed twice), forbidden, missing, vis-2 and the koepel's servies image.
    expect(heads.sort()).toEqual(
      ['vis-1', 'forbidden', 'missing', 'vis-2', 'servies'].map((id) => `HEAD /iiif/3/${id}/full/max/0/default.jpg`).sort(),
    );
    expect(server.requests.length).toBe(heads.length);
    // forbidden (403), missing (404) and the image on images.example.org are dropped.
    expect(result.report.imagesChecked).toBe(5);
    expect(result.report.imagesDropped).toBe(3);
  });

  it('keeps every image unchecked when image validation is off', async () => {
    const before = server.requests.length;
    const unchecked = await harvestToText(dir, { validateImages: false });
    const graph = graphQuads(parseNQuads(unchecked.publicText), `${BASE}/v2/id/object/1987-1105`);
    const positions = graph
      .filter((q) => q.predicate.value === 'http://schema.org/position')
      .map((q) => `${q.subject.value.replace(server.origin, '').replace('https://images.example.org', '')} ${q.object.value}`)
      .sort();
    expect(positions).toEqual([
      '/iiif/3/elders/full/max/0/default.jpg 3',
      '/iiif/3/forbidden/full/max/0/default.jpg 2',
      '/iiif/3/missing/full/max/0/default.jpg 4',
      '/iiif/3/vis-1/full/max/0/default.jpg 1',
      '/iiif/3/vis-2/full/max/0/default.jpg 5',
    ]);
    expect(server.requests.length).toBe(before);
    expect(unchecked.report.imagesChecked).toBe(0);
  });
});
