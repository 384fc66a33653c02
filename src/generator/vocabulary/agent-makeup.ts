/**
 * What invented agents are made of (agents.ts builds them): how often each profession and industry occurs,
 * what each industry makes, and the name patterns and legal forms of firms per name language. Data tables.
 */
import type { Profession } from './agents.js';
import type { Industry } from './families.js';

export const PROFESSION_WEIGHTS: readonly (readonly [Profession, number])[] = [
  ['designer', 15],
  ['furniture', 15],
  ['ceramist', 12],
  ['glass', 10],
  ['silversmith', 8],
  ['jeweller', 6],
  ['graphic', 10],
  ['textile', 8],
  ['industrial', 10],
  ['architect', 5],
  ['painter', 1],
];

export const INDUSTRY_WEIGHTS: readonly (readonly [Industry, number])[] = [
  ['ceramics', 15],
  ['glass', 12],
  ['metal', 12],
  ['furniture', 18],
  ['plastics', 6],
  ['textile', 10],
  ['graphic', 10],
  ['lighting', 8],
  ['jewellery', 5],
  ['general', 4],
];

/** What an industry makes, for biographies. */
export const INDUSTRY_OBJECTS: Record<Industry, { nl: string; fr: string; en: string }> = {
  ceramics: { nl: 'vazen, serviezen en tegels', fr: 'des vases, des services et des carreaux', en: 'vases, tableware and tiles' },
  glass: { nl: 'vazen, drinkglazen en verlichting', fr: 'des vases, des verres et des luminaires', en: 'vases, drinking glasses and lighting' },
  metal: { nl: 'tafelzilver, kandelaars en juwelen', fr: "de l'argenterie de table, des chandeliers et des bijoux", en: 'table silver, candlesticks and jewellery' },
  furniture: { nl: 'stoelen, tafels en kasten', fr: 'des chaises, des tables et des armoires', en: 'chairs, tables and cabinets' },
  plastics: { nl: 'huishoudartikelen en meubelen', fr: 'des articles ménagers et des meubles', en: 'household goods and furniture' },
  textile: { nl: 'tapijten, stoffen en wandtapijten', fr: 'des tapis, des tissus et des tapisseries', en: 'rugs, fabrics and tapestries' },
  graphic: { nl: 'affiches, boekbanden en reclame', fr: 'des affiches, des reliures et de la publicité', en: 'posters, book covers and advertising' },
  lighting: { nl: 'lampen en huishoudtoestellen', fr: 'des lampes et des appareils ménagers', en: 'lamps and household appliances' },
  jewellery: { nl: 'broches, halssnoeren en ringen', fr: 'des broches, des colliers et des bagues', en: 'brooches, necklaces and rings' },
  general: { nl: 'meubelen, interieurs en gebruiksvoorwerpen', fr: 'des meubles, des intérieurs et des objets utilitaires', en: 'furniture, interiors and everyday objects' },
};

export type NameLang = 'nl' | 'fr' | 'it' | 'de' | 'da' | 'sv' | 'fi';
export const ORG_TEMPLATES: Record<Industry, Partial<Record<NameLang, readonly string[]>>> = {
  ceramics: {
    nl: ['Porseleinfabriek {S}', 'Plateelbakkerij {P}', 'Keramiek {S}'],
    fr: ['Faïencerie de {P}', 'Manufacture de porcelaine {S}', 'Céramiques {S}'],
    it: ['Ceramiche {S}', 'Manifattura {S}'],
    de: ['{S} Keramik', 'Porzellanfabrik {S}', '{S} Steingut'],
    da: ['{S} Porcelæn'],
    sv: ['{S} Porslin'],
    fi: ['{S} Keramiikka'],
  },
  glass: {
    nl: ['Glasfabriek {P}', 'Glasblazerij {S}'],
    fr: ['Verreries de {P}', 'Cristallerie {S}'],
    it: ['Vetreria {S}', "Vetri d'arte {S}"],
    de: ['{S} Glashütte', 'Glaswerk {S}'],
    da: ['{S} Glasværk'],
    sv: ['{S} Glasbruk'],
    fi: ['{S} Lasitehdas'],
  },
  metal: {
    nl: ['Zilversmederij {S}', 'Edelsmidse {S}'],
    fr: ['Orfèvrerie {S}'],
    it: ['Argenteria {S}'],
    de: ['{S} Silberwaren', 'Metallwarenfabrik {S}'],
    da: ['{S} Sølv'],
    sv: ['{S} Silver'],
    fi: ['{S} Hopea'],
  },
  furniture: {
    nl: ['Meubelfabriek {S}', 'Meubelmakerij {S}'],
    fr: ['Ateliers {S}', 'Meubles {S}'],
    it: ['Mobili {S}', '{S} Arredamenti'],
    de: ['{S} Möbelwerkstätten', 'Möbelfabrik {S}'],
    da: ['{S} Møbelfabrik', '{S} Snedkeri'],
    sv: ['{S} Möbler'],
    fi: ['{S} Huonekalu'],
  },
  lighting: {
    nl: ['Lampenfabriek {S}'],
    fr: ['Luminaires {S}'],
    it: ['{S} Illuminazione', '{S} Luce'],
    de: ['{S} Leuchten'],
    da: ['{S} Lys'],
    sv: ['{S} Belysning'],
    fi: ['{S} Valaisimet'],
  },
  textile: {
    nl: ['Weverij {S}', 'Textielfabriek {P}'],
    fr: ['Manufacture de tapis {S}', 'Tissages {S}'],
    it: ['Tessitura {S}'],
    de: ['{S} Weberei'],
    da: ['{S} Væveri'],
    sv: ['{S} Väveri'],
    fi: ['{S} Kutomo'],
  },
  graphic: {
    nl: ['Drukkerij {S}', 'Steendrukkerij {S}'],
    fr: ['Imprimerie {S}', 'Lithographie {S}'],
    it: ['Litografia {S}', 'Officine grafiche {S}'],
    de: ['{S} Druck', 'Kunstanstalt {S}'],
    da: ['{S} Bogtrykkeri'],
    sv: ['{S} Tryckeri'],
    fi: ['{S} Kirjapaino'],
  },
  jewellery: {
    nl: ['Juwelier {S}'],
    fr: ['Bijouterie {S}', 'Maison {S}'],
    it: ['Gioielleria {S}'],
    de: ['{S} Schmuck'],
    da: ['{S} Guld og Sølv'],
    sv: ['{S} Guldsmeder'],
    fi: ['{S} Koru'],
  },
  plastics: {
    nl: ['{S} Kunststoffen'],
    fr: ['Plastiques {S}'],
    it: ['{S} Plastiche'],
    de: ['{S} Kunststoffe'],
    da: ['{S} Plast'],
    sv: ['{S} Plast'],
    fi: ['{S} Muovi'],
  },
  general: {
    nl: ['Studio {S}', '{S} & Zonen', 'Gebroeders {S}'],
    fr: ['{S} Frères', 'Atelier {S}'],
    it: ['{S} & Figli', 'Studio {S}'],
    de: ['{S} & Söhne', 'Werkstatt {S}'],
    da: ['{S} & Søn'],
    sv: ['{S} & Söner'],
    fi: ['{S} Oy'],
  },
};
export const LEGAL_SUFFIX: Record<NameLang, string> = { nl: ' NV', fr: ' S.A.', it: ' S.p.A.', de: ' GmbH', da: ' A/S', sv: ' AB', fi: ' Oy' };
