/**
 * The vocabulary of the stored graph as ready-made N-Quads terms (`<iri>`), so that mapping code
 * concatenates strings instead of building IRIs per quad. docs/graph-model.md says where each is used.
 */
import { NS, OWL_STANDARD, AAT, AUTHORITY, MUSEUM, LANGUAGE_AUTHORITY_CODE, type Lang } from '../vocab/namespaces.js';

const crm = (name: string): string => `<${NS.crm}${name}>`;
const aatTerm = (id: string): string => `<${AUTHORITY.aat}${id}>`;

/** Predicates. */
export const P = {
  type: `<${NS.rdf}type>`,
  label: `<${NS.rdfs}label>`,
  comment: `<${NS.rdfs}comment>`,
  value: `<${NS.rdf}value>`,
  /** The spec's owl:sameAs (https namespace), the one the JSON-LD shows. */
  sameAs: `<${NS.owl}sameAs>`,
  /** The standard owl:sameAs (http namespace), stated beside every spec sameAs for SPARQL users. */
  sameAsStandard: `<${OWL_STANDARD}sameAs>`,
  generatedAtTime: `<${NS.prov}generatedAtTime>`,
  modified: `<${NS.dcterms}modified>`,
  license: `<${NS.dcterms}license>`,
  thumbnail: `<${NS.foaf}thumbnail>`,
  position: `<${NS.schema}position>`,
  /** The record's first image: what the JSON-LD's convenience key `image` states (spec, "Image node"). */
  image: `<${NS.schema}image>`,
  citizenship: `<${NS.person}citizenship>`,
  prefLabel: `<${NS.skos}prefLabel>`,
  scopeNote: `<${NS.skos}scopeNote>`,
  broader: `<${NS.skos}broader>`,
  narrower: `<${NS.skos}narrower>`,
  P1: crm('P1_is_identified_by'),
  P2: crm('P2_has_type'),
  P3: crm('P3_has_note'),
  P4: crm('P4_has_time-span'),
  P7: crm('P7_took_place_at'),
  P11i: crm('P11i_participated_in'),
  P12i: crm('P12i_was_present_at'),
  P14: crm('P14_carried_out_by'),
  P15i: crm('P15i_was_motivation_of'),
  P16: crm('P16_used_specific_object'),
  P22: crm('P22_transferred_title_to'),
  P24i: crm('P24i_changed_ownership_through'),
  P32: crm('P32_used_general_technique'),
  P43: crm('P43_has_dimension'),
  P45: crm('P45_consists_of'),
  P46: crm('P46_has_component'),
  P46i: crm('P46i_forms_part_of'),
  P50: crm('P50_has_current_keeper'),
  P55: crm('P55_has_current_location'),
  P56: crm('P56_bears_feature'),
  P65: crm('P65_shows_visual_item'),
  P67i: crm('P67i_is_referred_to_by'),
  P72: crm('P72_has_language'),
  P82a: crm('P82a_begin_of_the_begin'),
  P82b: crm('P82b_end_of_the_end'),
  P90: crm('P90_has_value'),
  P91: crm('P91_has_unit'),
  P94i: crm('P94i_was_created_by'),
  P98i: crm('P98i_was_born'),
  P100i: crm('P100i_died_in'),
  P102: crm('P102_has_title'),
  P104: crm('P104_is_subject_to'),
  P106: crm('P106_is_composed_of'),
  P106i: crm('P106i_forms_part_of'),
  P107: crm('P107_has_current_or_former_member'),
  P107i: crm('P107i_is_current_or_former_member_of'),
  P108i: crm('P108i_was_produced_by'),
  P129i: crm('P129i_is_subject_of'),
  P138i: crm('P138i_has_representation'),
  P152: crm('P152_has_parent'),
  P152i: crm('P152i_is_parent_of'),
  adminState: `<${NS.admin}state>`,
  adminResolvesTo: `<${NS.admin}resolvesTo>`,
  adminPrivate: `<${NS.admin}private>`,
  adminHealthy: `<${NS.admin}healthy>`,
} as const;

/** Classes. */
export const C = {
  E7_Activity: crm('E7_Activity'),
  E8_Acquisition: crm('E8_Acquisition'),
  E12_Production: crm('E12_Production'),
  E21_Person: crm('E21_Person'),
  E22_Human_Made_Object: crm('E22_Human-Made_Object'),
  E30_Right: crm('E30_Right'),
  E33_Linguistic_Object: crm('E33_Linguistic_Object'),
  E35_Title: crm('E35_Title'),
  E26_Physical_Feature: crm('E26_Physical_Feature'),
  E36_Visual_Item: crm('E36_Visual_Item'),
  E62_String: crm('E62_String'),
  E38_Image: crm('E38_Image'),
  E39_Actor: crm('E39_Actor'),
  E41_Appellation: crm('E41_Appellation'),
  E42_Identifier: crm('E42_Identifier'),
  E52_Time_Span: crm('E52_Time-Span'),
  E53_Place: crm('E53_Place'),
  E54_Dimension: crm('E54_Dimension'),
  E55_Type: crm('E55_Type'),
  E57_Material: crm('E57_Material'),
  E58_Measurement_Unit: crm('E58_Measurement_Unit'),
  E65_Creation: crm('E65_Creation'),
  E67_Birth: crm('E67_Birth'),
  E69_Death: crm('E69_Death'),
  E73_Information_Object: crm('E73_Information_Object'),
  E74_Group: crm('E74_Group'),
  E78_Curated_Holding: crm('E78_Curated_Holding'),
} as const;

/** Getty AAT terms with the label the stored graph gives them. */
export const AAT_TERM = {
  description: { term: aatTerm(AAT.description), label: 'description' },
  centimetres: { term: aatTerm(AAT.centimetres), label: 'cm' },
  iiifManifest: { term: aatTerm(AAT.iiifManifest), label: 'IIIF manifest' },
  video: { term: aatTerm(AAT.video), label: 'video' },
  audio: { term: aatTerm(AAT.audio), label: 'audio' },
  publication: { term: aatTerm(AAT.publication), label: 'publication' },
  exhibition: { term: aatTerm(AAT.exhibition), label: 'Exhibition' },
  poster: { term: aatTerm(AAT.poster), label: 'poster' },
  exhibitionView: { term: aatTerm(AAT.exhibitionView), label: 'exhibition view' },
  creativeProject: { term: aatTerm(AAT.creativeProject), label: 'creative project' },
  permanentDisplay: { term: aatTerm(AAT.permanentDisplay), label: 'permanent collection display' },
  digitalImage: { term: aatTerm(AAT.digitalImage), label: 'digital image' },
  color: { term: aatTerm(AAT.color), label: 'color' },
  percentage: { term: aatTerm(AAT.percentage), label: 'percentage' },
  // Not in namespaces.AAT: only the pixel dimensions of exhibition views use it.
  pixels: { term: aatTerm('300266190'), label: 'pixels' },
} as const;

/**
 * The unit of colour percentages. The real service names AAT's "percentage" (300417476) as both the type and
 * the unit; one IRI with two classes and two labels would frame badly, so the unit is QUDT's percent.
 */
export const PERCENT_UNIT = { term: '<http://qudt.org/vocab/unit/PERCENT>', label: '%' } as const;

/** The museum (keeper, default venue, default organiser). */
export const MUSEUM_TERM = `<${MUSEUM.iri}>`;

/** `crm:P72_has_language` objects per source language. */
export const LANGUAGE_TERM: Record<Lang, string> = {
  nl: `<${AUTHORITY.language}${LANGUAGE_AUTHORITY_CODE.nl}>`,
  fr: `<${AUTHORITY.language}${LANGUAGE_AUTHORITY_CODE.fr}>`,
  en: `<${AUTHORITY.language}${LANGUAGE_AUTHORITY_CODE.en}>`,
};

/** Internal type (under `{base}/v2/id/type/`) of the reference number of agents and exhibitions. */
export const INTERNAL_ID = { type: 'intern-referentienummer', label: 'Intern referentienummer' } as const;
