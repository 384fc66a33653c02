/**
 * Objects every generated collection contains, whatever the size and seed: the four real objects of
 * reference/museumdex-demo-collection.excerpt.json (verbatim texts), the other real numbers and sets of
 * reference/real-identifiers.json, and one object per documented case (numbers 2000-00xx) so that README
 * and tests can name a stable example of each. Content the references do not give (dates, most makers)
 * is illustrative.
 */
import type { DateSpan, RecordState } from '../harvest/schema.js';
import type { FixedImage } from './images.js';
import type { Lang } from './text.js';
import type { AcquisitionMethod } from './vocabulary/phrases.js';
import type { PlaceKey } from './vocabulary/places.js';

export type Dating = 'undated' | 'creationOnly' | 'several' | 'single' | 'range' | 'wide' | 'approx' | 'approxRange' | 'uncertain' | 'percent';
export type ImageMode = 'none' | 'ok' | 'mixed' | 'allBad';
type Texts = { nl?: string; fr?: string; en?: string };

/** Choices that are otherwise random; any subset may be fixed. */
export interface Traits {
  dating?: Dating;
  /** Exact production date (implies one production); with dating `creationOnly`, the creation date. */
  date?: DateSpan;
  titleLangs?: readonly Lang[];
  descLangs?: readonly Lang[];
  titles?: Texts;
  descriptions?: Texts;
  parts?: boolean;
  unit?: 'mm' | 'm';
  video?: boolean;
  audio?: boolean;
  creativeProject?: boolean;
  imageMode?: ImageMode;
  acquisition?: AcquisitionMethod;
  /** Keys of ./vocabulary/agents.ts. */
  maker?: string;
  designer?: string;
  /** Concept keys (Dutch labels of ./vocabulary/thesaurus.ts). */
  types?: readonly string[];
  materials?: readonly string[];
}

/** A fully specified object (the real objects of the excerpt). */
export interface RealObject {
  titles: Texts;
  descriptions: Texts;
  types: readonly string[];
  materials: readonly string[];
  techniques: readonly string[];
  maker: string;
  designer?: string;
  place: PlaceKey;
  productionDate?: DateSpan;
  creationDate?: DateSpan;
  dimensions: readonly (readonly [string, number])[];
  acquisition: { method: AcquisitionMethod; year?: number; place?: PlaceKey };
  subCollections: readonly string[];
  image: FixedImage;
}

export interface ObjectAnchor {
  number: string;
  family: string;
  /** The case this object illustrates (README table). */
  note: string;
  state?: RecordState;
  public?: boolean;
  healthy?: boolean;
  onDisplay?: boolean;
  traits?: Traits;
  real?: RealObject;
}

export interface SetAnchor {
  /** Object number without the `_<x>-<n>` suffix. */
  base: string;
  size: number;
  family: string;
  /** Member numbers zero-padded to the width of the size (`_01-12`). */
  padded?: boolean;
  setName: string;
  note: string;
}

const span = (label: string, begin: number, end: number): DateSpan => ({ label, begin, end });

const PLIA_DESCRIPTION =
  "Giancarlo Piretti ontwierp de vouwstoel 'Plia' als vaste medewerker van Anonima Castelli. Hij ontwikkelde een baanbrekend vouwmechanisme, waarbij de gebruikelijke zes scharnieren plaatsmaakten voor twee scharnieren met drie segmenten. Hierdoor is de stoel in gevouwen toestand uitzonderlijk plat. De opengeklapte stoelen laten zich dan weer gemakkelijk stapelen. Na de lancering op de Salone del Mobile in Milaan in 1969 kende de stoel al snel een grote populariteit. De lichte en compacte constructie met afgeronde hoeken en het gebruik van glanzende stalen buizen en doorschijnend plastic gaven de stoel een aantrekkelijk, modern uitzicht.  In 1973 werd het ontwerp bekroond met de Duitse designprijs Gute Form.";

/** The four objects of the excerpt, verbatim where the excerpt gives a value. */
const REAL: Record<string, RealObject> = {
  '1482': {
    titles: { nl: 'Theebusje' },
    descriptions: {
      nl: 'Aardewerken cilindrisch theebusje. De wand is gedecoreerd met afwisselende turquoise en bruine verticale strepen, afgeboord met een horizontale groene rand boven en onder. Het dopdeksel heeft fijne horizontale strepen, concentrisch op de bovenzijde van het deksel. Het theebusje is aangekocht in mei 1913, hoogstwaarschijnlijk op de Wereldtentoonstelling in Gent. In de kunsthandel worden gelijkaardige stukken vermeld met het originele kleefetiket. Deze worden meestal als art deco bestempeld. Gezien de aankoopdatum van deze vaas bestond deze decoratiestijl reeds voor 1920.',
    },
    types: ['theebusje', 'deksel'],
    materials: ['keramiek (materiaal)'],
    techniques: ['vormgieten', 'bakken', 'schilderkunst (discipline)', 'verglazen', 'glazuren'],
    maker: 'velten',
    place: 'velten',
    productionDate: span('1910/1913', 1910, 1913),
    dimensions: [
      ['hoogte', 13.5],
      ['diameter', 7.3],
    ],
    acquisition: { method: 'aankoop', year: 1913, place: 'gent' },
    subCollections: ['art deco'],
    image: { key: '1482', shape: 'vase', colors: ['#3fb8af', '#7b4a2a', '#4f8a3c'], transparent: false },
  },
  'TUP-0073': {
    titles: { nl: 'Micro+ Pitcher 1 l' },
    descriptions: {
      nl: 'Deze kan van een liter is gemaakt uit polyetherimide, een sterke en lichte kunststof met een groot temperatuurbereik. Ze dient om voeding te koken of op te warmen in de microgolf en te bewaren in koelkast of diepvries. Door de bolle vorm kan voeding eenvoudig gemengd worden voor of tijdens het koken. Tupperware, opgericht in 1946 door Earl Tupper, werd beroemd met de massaproductie van kunststof huishoudproducten, in het bijzonder voor het bereiden, serveren en bewaren van voedsel. In 1961 opende in België de eerste fabriek buiten de Verenigde Staten. Die kreeg in 1966 een ontwerpafdeling voor de Europese, Afrikaanse en Midden-Oosterse markt. Daar werkte Pieter De Coster als senior product designer van 1970 tot 1998.',
    },
    types: ['microgolfovenschaal', 'deksel', 'kan'],
    materials: ['polyetherimide'],
    techniques: [],
    maker: 'tupperware',
    place: 'aalst',
    dimensions: [
      ['hoogte', 14],
      ['breedte', 21],
      ['diepte', 15.5],
    ],
    acquisition: { method: 'bruikleen', year: 2005 },
    subCollections: ['hedendaags design'],
    image: { key: 'TUP-0073', shape: 'jug', colors: ['#d98c1f', '#c4761a'], transparent: true },
  },
  '2017-0095_1-3': {
    titles: { nl: 'Plia' },
    descriptions: { nl: `${PLIA_DESCRIPTION} Dit exemplaar heeft een zitting en rugleuning in grijze, doorschijnende kunststof.` },
    types: ['klapstoel'],
    materials: [],
    techniques: ['verchromen'],
    maker: 'castelli',
    designer: 'piretti',
    place: 'bologna',
    creationDate: span('1967/1969', 1967, 1969),
    productionDate: span('1969/1979', 1969, 1979),
    dimensions: [
      ['hoogte', 74.5],
      ['breedte', 46.5],
      ['diepte', 49],
    ],
    acquisition: { method: 'oningeschreven gevonden', year: 2017 },
    subCollections: ['design na 1945'],
    image: { key: '2017-0095_1-3', shape: 'chair', colors: ['#9aa0a6', '#c8ccd0', '#b0b4b8'], transparent: true },
  },
  '0935': {
    titles: { nl: 'Vloerkleed uit de eigen woning van de ontwerper' },
    descriptions: {
      nl: "Jules Boulez leverde net als andere Belgische en buitenlandse kunstenaars ontwerpen voor het weefatelier gestart in 1921 door Elisabeth de Saedeleer en haar zussen in Etikhove. Het monogram staat waarschijnlijk voor de officiële firmanaam: Société des Tapis d'Art de Saedeleer et Co. In reactie op de toenmalige gemechaniseerde productie streefden ze er naar tapijten te produceren die weliswaar artisanaal maar toch hedendaags waren. Tapijten moesten volgens hen decoratief zijn en passen in het groter geheel van het interieur. Daarom hoorde de versiering vlak te zijn en niet realistisch. Dit tapijt beantwoordt aan deze uitgaanspunten. Kenmerkend voor Boulez zijn daarbij de kloeke vormen en de kleurovergangen.",
    },
    types: ['vloerkleed'],
    materials: [],
    techniques: ['tapijtknopen'],
    maker: 'saedeleerStudio',
    designer: 'boulez',
    place: 'etikhove',
    productionDate: span('1921/1930', 1921, 1930),
    dimensions: [
      ['hoogte', 159.5],
      ['breedte', 91.5],
    ],
    acquisition: { method: 'onbekend' },
    subCollections: ['art deco', 'textielcollectie'],
    image: { key: '0935', shape: 'textile', colors: ['#2f4f7f', '#c9a227', '#8b3a2f', '#e0cfa8'], transparent: false },
  },
};

/** Images of fixed records, with seed-independent ids. */
export const FIXED_IMAGES: readonly FixedImage[] = [
  ...Object.values(REAL).map((r) => r.image),
  { key: '1987-1105', shape: 'figurine', colors: ['#e8eef0', '#9cc0d8', '#f2c6a0'], transparent: true },
  // The image cases of src/iiif/README.md, each the first image of an anchor with a real number.
  { key: '3057', shape: 'vase', colors: ['#e6e4df', '#b9b7b2', '#8e8c88'], transparent: false, background: '#f4f2ee' },
  { key: '0559', shape: 'cabinet', colors: ['#8a3b26'], transparent: false, background: '#f2efe9' },
  { key: '1988-0028', shape: 'cabinet', colors: ['#e8412c', '#f6d02f', '#1d5fbf', '#202020', '#3aa655', '#f06292', '#f4f1ea'], transparent: false, background: '#eeeeea', pattern: 'dots' },
  { key: '1987-0013', shape: 'tile', colors: ['#f1ead8', '#2556a0', '#d9a21b', '#b8322a', '#3b7d4a', '#6a4c93'], transparent: false, background: '#fafafa', pattern: 'checks' },
  { key: '1999-0081', shape: 'poster', colors: ['#d7263d', '#1b998b', '#f46036', '#2e294e', '#c5d86d', '#f2e3bc', '#1d5fbf', '#202020'], transparent: false, background: '#e9ecef', pattern: 'stripes' },
  {
    key: '2017-0308',
    shape: 'lamp',
    colors: ['#1a1a1a', '#c9a94d', '#5f666d'],
    transparent: false,
    background: '#f4f2ee',
    backdrop: { kind: 'gradient', colors: ['#ebe8e2', '#e2ded6', '#d9d4cb', '#d0cabf', '#c7c0b4'] },
  },
  { key: '2022-0016', shape: 'chair', colors: ['#e63b2e', '#1a1a1a', '#c5cbd1'], transparent: false, background: '#eeeeea', backdrop: { kind: 'floor', colors: ['#a88b68'] } },
  { key: '2024-0006', shape: 'jewel', colors: ['#d4af37', '#2e8b57', '#e1e3e6'], transparent: false, background: '#efece6', backdrop: { kind: 'texture', colors: ['#e2ddd4', '#d6d0c5'] } },
  {
    key: '1980-0205',
    shape: 'plate',
    colors: ['#f4f1ea', '#2b4c9b', '#d4af37', '#c23b22', '#2e8b57'],
    transparent: false,
    background: '#f0f3f5',
    backdrop: { kind: 'texture', colors: ['#e2e5e7'] },
    pattern: 'dots',
  },
  { key: '2017-0448', shape: 'box', colors: ['#d9d7d2', '#a3a19c', '#6c6b68'], transparent: false, background: '#f7f4ef', backdrop: { kind: 'gradient', colors: ['#ebe8e3', '#dfdbd6', '#d3cfc9'] } },
  { key: '2004-0050', shape: 'glass', colors: ['#6fa8c9', '#b5d3e0', '#3c8c6e'], transparent: true },
];

/** Sets: koepelrecord `<base>_0-<size>` with members `<base>_<x>-<size>`. */
export const SET_ANCHORS: readonly SetAnchor[] = [
  { base: '2017-0095', size: 3, family: 'chair', setName: 'Plia', note: 'set of the real Plia chair 2017-0095_1-3' },
  { base: '1990-0060', size: 5, family: 'plate', setName: 'Aurora', note: 'real koepelrecord with 5 members' },
  { base: '1990-0062', size: 4, family: 'tile', setName: 'Lys', note: 'real koepelrecord with 4 members' },
  { base: '1997-0016', size: 2, family: 'chair', setName: 'Kouter', note: 'real koepelrecord with 2 members' },
  { base: '1985-0061', size: 2, family: 'glass', setName: 'Opaline', note: 'real koepelrecord with 2 members' },
  { base: '1990-0061', size: 2, family: 'cup', setName: 'Camelia', note: 'real koepelrecord with 2 members' },
  { base: '1997-0037', size: 2, family: 'jewel', setName: 'Tessera', note: 'real koepelrecord with 2 members' },
  { base: '2016-0010', size: 2, family: 'lamp', setName: 'Lumen', note: 'real set member 2016-0010_1-2 and its koepel' },
  { base: '2022-0058', size: 2, family: 'vase', setName: 'Onda', note: 'real set member 2022-0058_1-2 and its koepel' },
  { base: '1996-0016', size: 2, family: 'cutlery', setName: 'Linea', note: 'real set member 1996-0016_1-2 and its koepel' },
  { base: '1998-0024', size: 12, family: 'tile', padded: true, setName: 'Gravensteen', note: 'zero-padded members (_01-12 … _12-12), like 1998-0024_044-755' },
];

const PLIA_TRAITS: Traits = { types: ['klapstoel'], materials: ['chroomstaal', 'plexiglas'], maker: 'castelli', designer: 'piretti', date: span('1969/1979', 1969, 1979) };

export const OBJECT_ANCHORS: readonly ObjectAnchor[] = [
  // The four real objects of the excerpt (all on display, as the excerpt was saved from ?onDisplay=true).
  { number: '1482', family: 'teapot', note: 'real object: Theebusje (aankoop 1913)', onDisplay: true, real: REAL['1482'] as RealObject },
  { number: 'TUP-0073', family: 'plastics', note: 'real object: Micro+ Pitcher 1 l (bruikleen 2005)', onDisplay: true, real: REAL['TUP-0073'] as RealObject },
  { number: '2017-0095_1-3', family: 'chair', note: 'real object and set member: Plia', onDisplay: true, real: REAL['2017-0095_1-3'] as RealObject },
  { number: '0935', family: 'textile', note: 'real object: Vloerkleed (acquisition onbekend)', onDisplay: true, real: REAL['0935'] as RealObject },
  {
    number: '2017-0095_0-3',
    family: 'chair',
    note: 'koepelrecord of the Plia set',
    traits: {
      ...PLIA_TRAITS,
      titles: { nl: "Set van drie klapstoelen 'Plia'", fr: 'Ensemble de trois chaises pliantes « Plia »', en: "Set of three 'Plia' folding chairs" },
      descriptions: { nl: `${PLIA_DESCRIPTION} De set bestaat uit drie exemplaren met zittingen in verschillende tinten.` },
    },
  },
  {
    number: '2017-0095_2-3',
    family: 'chair',
    note: 'Plia set member',
    traits: { ...PLIA_TRAITS, titles: { nl: 'Plia' }, descriptions: { nl: `${PLIA_DESCRIPTION} Dit exemplaar heeft een zitting en rugleuning in rookkleurige, doorschijnende kunststof.` } },
  },
  {
    number: '2017-0095_3-3',
    family: 'chair',
    note: 'Plia set member',
    traits: { ...PLIA_TRAITS, titles: { nl: 'Plia' }, descriptions: { nl: `${PLIA_DESCRIPTION} Dit exemplaar heeft een zitting en rugleuning in transparante kunststof.` } },
  },
  // Other real numbers (reference/real-identifiers.json); content illustrative except the title of 1987-1105.
  {
    number: '1987-1105',
    family: 'figurine',
    note: 'real number and title: Beeldje van een vis in opaalglas',
    traits: {
      titles: { nl: 'Beeldje van een vis in opaalglas', fr: 'Figurine en forme de poisson en verre opalin', en: 'Figurine of a fish in opal glass' },
      types: ['dierfiguur'],
      materials: ['opaalglas'],
      maker: 'valSaintLambert',
      date: span('1925~', 1925, 1925),
      acquisition: 'schenking',
    },
  },
  { number: '3057', family: 'vase', note: 'real number' },
  { number: '2017-0308', family: 'lamp', note: 'real number (target of the renumbered 2000-0002)' },
  { number: '1988-0028', family: 'cabinet', note: 'real number; made by Memphis (DMG-A-00162)', traits: { maker: 'memphis', designer: 'sottsass', date: span('1981', 1981, 1981), types: ['boekenkast'], materials: ['multiplex'] } },
  { number: '2004-0050', family: 'glass', note: 'real number' },
  { number: '1987-0013', family: 'tile', note: 'real number' },
  { number: '2022-0016', family: 'chair', note: 'real number', traits: { designer: 'vanSeveren', maker: 'vitra' } },
  { number: '2024-0006', family: 'jewel', note: 'real number' },
  { number: '1999-0081', family: 'poster', note: 'real number' },
  { number: '1980-0205', family: 'plate', note: 'real number' },
  { number: '0559', family: 'cabinet', note: 'real number (old plain numbering)' },
  { number: '2017-0448', family: 'box', note: 'real number' },
  // One object per case.
  { number: '2000-0001', family: 'figurine', note: 'merged into 1987-1105 (301)', state: { kind: 'merged', into: '1987-1105' } },
  { number: '2000-0002', family: 'lamp', note: 'renumbered into 2017-0308 (301)', state: { kind: 'renumbered', into: '2017-0308' } },
  { number: '2000-0003', family: 'teapot', note: 'withdrawn, resolves to 1482 (301)', state: { kind: 'withdrawn', into: '1482' } },
  { number: '2000-0004', family: 'vase', note: 'removed (410)', state: { kind: 'removed' } },
  { number: '2000-0005', family: 'bowl', note: 'unhealthy (healthy: false)', healthy: false },
  { number: '2000-0006', family: 'jug', note: 'private (public: false)', public: false },
  { number: '2000-0010', family: 'box', note: 'undated (no production or creation dates)', traits: { dating: 'undated' } },
  { number: '2000-0011', family: 'chair', note: 'creation only (design dated 1957, no production)', traits: { dating: 'creationOnly', designer: 'jacobsen', date: span('1957', 1957, 1957) } },
  { number: '2000-0012', family: 'chair', note: 'three productions (original and re-editions)', traits: { dating: 'several', designer: 'rietveld' } },
  { number: '2000-0013', family: 'tile', note: 'wide span 1850/1950', traits: { date: span('1850/1950', 1850, 1950) } },
  { number: '2000-0014', family: 'lamp', note: 'single year 1969', traits: { date: span('1969', 1969, 1969) } },
  { number: '2000-0015', family: 'vase', note: 'EDTF 1925~ (begin = end = 1925)', traits: { date: span('1925~', 1925, 1925) } },
  { number: '2000-0016', family: 'plate', note: 'EDTF 1850?/1900', traits: { date: span('1850?/1900', 1850, 1900) } },
  { number: '2000-0017', family: 'glass', note: 'EDTF 1920~/1930', traits: { date: span('1920~/1930', 1920, 1930) } },
  { number: '2000-0018', family: 'jewel', note: 'EDTF 1901%', traits: { date: span('1901%', 1901, 1901) } },
  { number: '2000-0020', family: 'lamp', note: 'named physical parts with materials and dimensions', traits: { parts: true } },
  { number: '2000-0021', family: 'cutlery', note: 'no images, no manifest', traits: { imageMode: 'none' } },
  { number: '2000-0022', family: 'vase', note: 'manifest, but every image answers 404 or 403', traits: { imageMode: 'allBad' } },
  { number: '2000-0023', family: 'chair', note: 'images mixed: good, 404 and 403', traits: { imageMode: 'mixed' } },
  { number: '2000-0024', family: 'jewel', note: 'dimensions in mm', traits: { unit: 'mm' } },
  { number: '2000-0025', family: 'textile', note: 'dimensions in m', traits: { unit: 'm' } },
  { number: '2000-0030', family: 'bowl', note: 'title and description in Dutch only', traits: { titleLangs: ['nl'], descLangs: ['nl'] } },
  { number: '2000-0031', family: 'cup', note: 'title and description in Dutch and English', traits: { titleLangs: ['nl', 'en'], descLangs: ['nl', 'en'] } },
  { number: '2000-0032', family: 'vase', note: 'title and description in Dutch, French and English', traits: { titleLangs: ['nl', 'fr', 'en'], descLangs: ['nl', 'fr', 'en'] } },
  { number: '2000-0033', family: 'poster', note: 'no Dutch title: French only', traits: { titleLangs: ['fr'], descLangs: ['fr'] } },
  { number: '2000-0034', family: 'chair', note: 'no Dutch title: English only', traits: { titleLangs: ['en'], descLangs: ['en'] } },
  { number: '2000-0040', family: 'chair', note: 'video', traits: { video: true } },
  { number: '2000-0041', family: 'textile', note: 'audio', traits: { audio: true } },
  { number: '2000-0042', family: 'tile', note: 'creative project', traits: { creativeProject: true } },
  { number: '2000-0043', family: 'glass', note: 'acquisition: schenking', traits: { acquisition: 'schenking' } },
  { number: '2000-0044', family: 'box', note: 'acquisition: legaat', traits: { acquisition: 'legaat' } },
  { number: '2000-0045', family: 'clock', note: 'on display', onDisplay: true },
];
