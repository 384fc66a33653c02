/**
 * Agents that every generated collection contains: the makers of the four real objects, Memphis (with its
 * real pid and authority links) and well-known designers and manufacturers. Life dates and places follow
 * the encyclopedias; pids other than DMG-A-00162 and all other authority links are illustrative.
 */
import type { CountryCode } from './countries.js';
import type { Industry } from './families.js';
import type { PlaceKey } from './places.js';
import type { RelationType } from '../../harvest/schema.js';
import type { Tri } from './phrases.js';

export type Profession = 'architect' | 'designer' | 'furniture' | 'ceramist' | 'glass' | 'silversmith' | 'jeweller' | 'graphic' | 'textile' | 'industrial' | 'painter';

export const PROFESSIONS: Record<Profession, { industry: Industry; nl: readonly [string, string]; fr: readonly [string, string]; en: string }> = {
  architect: { industry: 'general', nl: ['architect', 'architecte'], fr: ['architecte', 'architecte'], en: 'architect' },
  designer: { industry: 'general', nl: ['ontwerper', 'ontwerpster'], fr: ['designer', 'designeuse'], en: 'designer' },
  furniture: { industry: 'furniture', nl: ['meubelontwerper', 'meubelontwerpster'], fr: ['créateur de meubles', 'créatrice de meubles'], en: 'furniture designer' },
  ceramist: { industry: 'ceramics', nl: ['keramist', 'keramiste'], fr: ['céramiste', 'céramiste'], en: 'ceramist' },
  glass: { industry: 'glass', nl: ['glaskunstenaar', 'glaskunstenares'], fr: ['artiste verrier', 'artiste verrière'], en: 'glass artist' },
  silversmith: { industry: 'metal', nl: ['edelsmid', 'edelsmid'], fr: ['orfèvre', 'orfèvre'], en: 'silversmith' },
  jeweller: { industry: 'jewellery', nl: ['juweelontwerper', 'juweelontwerpster'], fr: ['créateur de bijoux', 'créatrice de bijoux'], en: 'jewellery designer' },
  graphic: { industry: 'graphic', nl: ['grafisch ontwerper', 'grafisch ontwerpster'], fr: ['graphiste', 'graphiste'], en: 'graphic designer' },
  textile: { industry: 'textile', nl: ['textielontwerper', 'textielontwerpster'], fr: ['créateur textile', 'créatrice textile'], en: 'textile designer' },
  industrial: { industry: 'lighting', nl: ['industrieel vormgever', 'industrieel vormgeefster'], fr: ['designer industriel', 'designeuse industrielle'], en: 'industrial designer' },
  painter: { industry: 'graphic', nl: ['schilder', 'schilderes'], fr: ['peintre', 'peintre'], en: 'painter' },
};

/** What an organisation of an industry is called. */
export const ORGANISATION_KINDS: Record<Industry, Tri> = {
  ceramics: { nl: 'keramiekfabriek', fr: 'faïencerie', en: 'ceramics manufacturer' },
  glass: { nl: 'glasfabriek', fr: 'verrerie', en: 'glassworks' },
  metal: { nl: 'edelsmidse', fr: 'orfèvrerie', en: 'silverware manufacturer' },
  furniture: { nl: 'meubelfabrikant', fr: 'fabricant de meubles', en: 'furniture manufacturer' },
  plastics: { nl: 'kunststofproducent', fr: 'fabricant de matières plastiques', en: 'plastics manufacturer' },
  textile: { nl: 'weverij', fr: 'manufacture textile', en: 'textile manufacturer' },
  graphic: { nl: 'drukkerij', fr: 'imprimerie', en: 'printing house' },
  lighting: { nl: 'verlichtingsfabrikant', fr: 'fabricant de luminaires', en: 'lighting manufacturer' },
  jewellery: { nl: 'juweliershuis', fr: 'maison de joaillerie', en: 'jewellery house' },
  general: { nl: 'ontwerpstudio', fr: 'studio de design', en: 'design studio' },
};

export interface FamousAgent {
  key: string;
  /** Fixed pid; the others are numbered DMG-A-01000 and up in table order. */
  pid?: string;
  name: string;
  kind: 'person' | 'organisation';
  gender?: 'MALE' | 'FEMALE';
  country: CountryCode;
  birth?: readonly [number, PlaceKey?];
  death?: readonly [number, PlaceKey?];
  industry: Industry;
  profession?: Profession;
  alternativeNames?: readonly string[];
  /** Real authority links (only Memphis has them); the others get illustrative links. */
  sameAs?: readonly string[];
  /** Which evidence classifies the agent (spec "Agent classification"); the registrar's kind by default. */
  classify?: 'registrar' | 'knowledgeBase' | 'none';
}

const person = (
  key: string,
  name: string,
  gender: 'MALE' | 'FEMALE',
  country: CountryCode,
  profession: Profession,
  birth?: readonly [number, PlaceKey?],
  death?: readonly [number, PlaceKey?],
  extra: Partial<FamousAgent> = {},
): FamousAgent => ({ key, name, kind: 'person', gender, country, profession, industry: PROFESSIONS[profession].industry, ...(birth ? { birth } : {}), ...(death ? { death } : {}), ...extra });

const org = (
  key: string,
  name: string,
  country: CountryCode,
  industry: Industry,
  birth?: readonly [number, PlaceKey?],
  death?: readonly [number, PlaceKey?],
  extra: Partial<FamousAgent> = {},
): FamousAgent => ({ key, name, kind: 'organisation', country, industry, ...(birth ? { birth } : {}), ...(death ? { death } : {}), ...extra });

export const FAMOUS_AGENTS: readonly FamousAgent[] = [
  org('memphis', 'Memphis', 'ITA', 'furniture', [1981, 'milaan'], [1988, 'milaan'], {
    pid: 'DMG-A-00162',
    alternativeNames: ['Memphis Group', 'Memphis Milano'],
    sameAs: ['https://stad.gent/id/agent/530000534', 'http://vocab.getty.edu/ulan/500125093', 'https://www.wikidata.org/entity/Q1273221'],
  }),
  person('piretti', 'Giancarlo Piretti', 'MALE', 'ITA', 'furniture', [1940, 'bologna'], undefined, { pid: 'DMG-A-03731' }),
  person('boulez', 'Jules Boulez', 'MALE', 'BEL', 'painter', [1889, 'gent'], [1960, 'gent'], { pid: 'DMG-A-00523' }),
  org('velten', 'Velten Vordamm Steingutfabrik', 'DEU', 'ceramics', [1835, 'velten'], [1931, 'velten'], { alternativeNames: ['Steingutfabrik Velten-Vordamm'] }),
  org('tupperware', 'Tupperware', 'USA', 'plastics', [1946]),
  org('castelli', 'Anonima Castelli', 'ITA', 'furniture', [1877, 'bologna'], undefined, { alternativeNames: ['Castelli'] }),
  org('saedeleerStudio', 'Studio de Saedeleer', 'BEL', 'textile', [1921, 'etikhove'], [1955, 'etikhove'], {
    alternativeNames: ["Société des Tapis d'Art de Saedeleer et Co"],
  }),
  person('elisabethDeSaedeleer', 'Elisabeth de Saedeleer', 'FEMALE', 'BEL', 'textile', [1902], [1972]),
  person('valeriusDeSaedeleer', 'Valerius de Saedeleer', 'MALE', 'BEL', 'painter', [1867, 'aalst'], [1941, 'oudenaarde']),
  person('deCoster', 'Pieter De Coster', 'MALE', 'BEL', 'industrial', undefined, undefined, { classify: 'none' }),
  person('tupper', 'Earl Tupper', 'MALE', 'USA', 'industrial', [1907], [1983], { classify: 'knowledgeBase' }),
  person('vandevelde', 'Henry van de Velde', 'MALE', 'BEL', 'architect', [1863, 'antwerpen'], [1957, 'zurich'], {
    alternativeNames: ['Henri van de Velde', 'Van de Velde, Henry'],
  }),
  person('horta', 'Victor Horta', 'MALE', 'BEL', 'architect', [1861, 'gent'], [1947, 'brussel']),
  person('philippeWolfers', 'Philippe Wolfers', 'MALE', 'BEL', 'silversmith', [1858, 'brussel'], [1929, 'brussel']),
  person('marcelWolfers', 'Marcel Wolfers', 'MALE', 'BEL', 'silversmith', [1886, 'brussel'], [1976, 'brussel']),
  org('wolfersFreres', 'Wolfers Frères', 'BEL', 'metal', [1850, 'brussel'], [1975, 'brussel']),
  person('serrurier', 'Gustave Serrurier-Bovy', 'MALE', 'BEL', 'furniture', [1858, 'luik'], [1910, 'antwerpen']),
  person('vanSeveren', 'Maarten Van Severen', 'MALE', 'BEL', 'furniture', [1956, 'antwerpen'], [2005, 'gent']),
  person('sottsass', 'Ettore Sottsass', 'MALE', 'ITA', 'architect', [1917, 'innsbruck'], [2007, 'milaan'], { alternativeNames: ['Ettore Sottsass jr.'] }),
  person('deLucchi', 'Michele De Lucchi', 'MALE', 'ITA', 'architect', [1951, 'ferrara']),
  person('duPasquier', 'Nathalie Du Pasquier', 'FEMALE', 'FRA', 'textile', [1957, 'bordeaux']),
  person('bedin', 'Martine Bedin', 'FEMALE', 'FRA', 'designer', [1957, 'bordeaux']),
  person('branzi', 'Andrea Branzi', 'MALE', 'ITA', 'architect', [1938, 'florence'], [2023, 'milaan']),
  person('ponti', 'Gio Ponti', 'MALE', 'ITA', 'architect', [1891, 'milaan'], [1979, 'milaan']),
  person('jacobsen', 'Arne Jacobsen', 'MALE', 'DNK', 'architect', [1902, 'kopenhagen'], [1971, 'kopenhagen']),
  person('henningsen', 'Poul Henningsen', 'MALE', 'DNK', 'industrial', [1894], [1967]),
  person('panton', 'Verner Panton', 'MALE', 'DNK', 'furniture', [1926], [1998, 'kopenhagen']),
  person('alvarAalto', 'Alvar Aalto', 'MALE', 'FIN', 'architect', [1898], [1976, 'helsinki']),
  person('ainoAalto', 'Aino Aalto', 'FEMALE', 'FIN', 'architect', [1894, 'helsinki'], [1949, 'helsinki']),
  person('wirkkala', 'Tapio Wirkkala', 'MALE', 'FIN', 'glass', [1915, 'hanko'], [1985, 'helsinki']),
  person('rietveld', 'Gerrit Rietveld', 'MALE', 'NLD', 'furniture', [1888, 'utrecht'], [1964, 'utrecht']),
  person('perriand', 'Charlotte Perriand', 'FEMALE', 'FRA', 'furniture', [1903, 'parijs'], [1999, 'parijs']),
  person('brandt', 'Marianne Brandt', 'FEMALE', 'DEU', 'silversmith', [1893, 'chemnitz'], [1983]),
  person('wagenfeld', 'Wilhelm Wagenfeld', 'MALE', 'DEU', 'industrial', [1900, 'bremen'], [1990, 'stuttgart']),
  person('moholyNagy', 'László Moholy-Nagy', 'MALE', 'HUN', 'designer', [1895], [1946], { classify: 'knowledgeBase' }),
  person('rams', 'Dieter Rams', 'MALE', 'DEU', 'industrial', [1932, 'wiesbaden']),
  person('galle', 'Émile Gallé', 'MALE', 'FRA', 'glass', [1846, 'nancy'], [1904, 'nancy']),
  person('lalique', 'René Lalique', 'MALE', 'FRA', 'jeweller', [1860], [1945, 'parijs']),
  person('augusteDaum', 'Auguste Daum', 'MALE', 'FRA', 'glass', [1853], [1909, 'nancy']),
  person('antoninDaum', 'Antonin Daum', 'MALE', 'FRA', 'glass', [1864], [1930, 'nancy']),
  person('hoffmann', 'Josef Hoffmann', 'MALE', 'AUT', 'architect', [1870], [1956, 'wenen']),
  person('dresser', 'Christopher Dresser', 'MALE', 'GBR', 'designer', [1834, 'glasgow'], [1904]),
  org('valSaintLambert', 'Val Saint Lambert', 'BEL', 'glass', [1826, 'seraing'], undefined, { alternativeNames: ['Cristalleries du Val Saint Lambert'] }),
  org('boch', 'Boch Frères Keramis', 'BEL', 'ceramics', [1841, 'laLouviere'], [2011, 'laLouviere'], { alternativeNames: ['Keramis'] }),
  org('royalCopenhagen', 'Royal Copenhagen', 'DNK', 'ceramics', [1775, 'kopenhagen']),
  org('thonet', 'Gebrüder Thonet', 'AUT', 'furniture', [1849, 'wenen'], undefined, { alternativeNames: ['Thonet'] }),
  org('cassina', 'Cassina', 'ITA', 'furniture', [1927]),
  org('artek', 'Artek', 'FIN', 'furniture', [1935, 'helsinki']),
  org('iittala', 'Iittala', 'FIN', 'glass', [1881]),
  org('rosenthal', 'Rosenthal', 'DEU', 'ceramics', [1879]),
  org('villeroy', 'Villeroy & Boch', 'DEU', 'ceramics', [1836]),
  org('christofle', 'Christofle', 'FRA', 'metal', [1830, 'parijs']),
  org('kartell', 'Kartell', 'ITA', 'plastics', [1949, 'milaan']),
  org('vitra', 'Vitra', 'CHE', 'furniture', [1950]),
  org('gispen', 'Gispen', 'NLD', 'furniture', [1916, 'rotterdam']),
  org('leerdam', 'Glasfabriek Leerdam', 'NLD', 'glass', [1878, 'leerdam'], undefined, { alternativeNames: ['Koninklijke Nederlandsche Glasfabriek Leerdam'] }),
  org('daum', 'Daum', 'FRA', 'glass', [1878, 'nancy'], undefined, { alternativeNames: ['Daum Frères', 'Cristallerie Daum'] }),
  org('louisPoulsen', 'Louis Poulsen', 'DNK', 'lighting', [1874, 'kopenhagen']),
  org('fritzHansen', 'Fritz Hansen', 'DNK', 'furniture', [1872, 'kopenhagen']),
  org('venini', 'Venini', 'ITA', 'glass', [1921, 'venetie']),
  org('braun', 'Braun', 'DEU', 'lighting', [1921, 'frankfurt'], undefined, { classify: 'knowledgeBase' }),
  org('porceleyneFles', 'De Porceleyne Fles', 'NLD', 'ceramics', [1653, 'delft'], undefined, { alternativeNames: ['Koninklijke Porceleyne Fles'] }),
  org('sevres', 'Manufacture nationale de Sèvres', 'FRA', 'ceramics', [1740, 'sevres']),
  org('haviland', 'Haviland', 'FRA', 'ceramics', [1842, 'limoges']),
  org('alessi', 'Alessi', 'ITA', 'metal', [1921], undefined, { classify: 'none' }),
];

/** Curated relations among the agents above, written from one side only (the harvest adds the inverse). */
export const FAMOUS_RELATIONS: readonly (readonly [string, RelationType, string])[] = [
  ['philippeWolfers', 'parent_of', 'marcelWolfers'],
  ['elisabethDeSaedeleer', 'child_of', 'valeriusDeSaedeleer'],
  ['alvarAalto', 'spouse_of', 'ainoAalto'],
  ['augusteDaum', 'sibling_of', 'antoninDaum'],
  ['castelli', 'employer_of', 'piretti'],
  ['deCoster', 'employee_of', 'tupperware'],
  ['moholyNagy', 'mentor_of', 'wagenfeld'],
  ['brandt', 'student_of', 'moholyNagy'],
  ['boulez', 'collaborator', 'saedeleerStudio'],
  ['deLucchi', 'member_of', 'memphis'],
  ['duPasquier', 'member_of', 'memphis'],
  ['memphis', 'has_member', 'bedin'],
  ['sottsass', 'founded', 'memphis'],
  ['tupperware', 'founded_by', 'tupper'],
  ['saedeleerStudio', 'founded_by', 'elisabethDeSaedeleer'],
  ['artek', 'founded_by', 'alvarAalto'],
  ['philippeWolfers', 'member_of', 'wolfersFreres'],
  ['augusteDaum', 'employee_of', 'daum'],
];
