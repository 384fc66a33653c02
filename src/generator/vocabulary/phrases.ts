/** Word lists for titles and descriptions in Dutch, French and English. */

export interface Tri {
  nl: string;
  fr: string;
  en: string;
}
const t = (nl: string, fr: string, en: string): Tri => ({ nl, fr, en });

/** Decoration phrases: Dutch after "met", French as a complement, English after "with". */
export const DECORS: readonly Tri[] = [
  t('bloemmotief', 'à motif floral', 'floral motif'),
  t('irisdecor', "à décor d'iris", 'iris decoration'),
  t('geometrisch decor', 'à décor géométrique', 'geometric decoration'),
  t('zwanen', 'aux cygnes', 'swans'),
  t('blauwe strepen', 'à rayures bleues', 'blue stripes'),
  t('vogels', 'aux oiseaux', 'birds'),
  t('wapenschild', 'aux armoiries', 'coat of arms'),
  t('zweepslagmotief', 'à motif en coup de fouet', 'whiplash motif'),
  t('landschap', 'à paysage', 'landscape'),
  t('gouden rand', 'à filet doré', 'gilt rim'),
  t('monogram', 'à monogramme', 'monogram'),
  t('visschubben', "à écailles de poisson", 'fish-scale pattern'),
  t('chinoiserieën', 'à chinoiseries', 'chinoiserie decoration'),
  t('rozenranken', 'à rinceaux de roses', 'rose scrolls'),
  t('golvend lijnenspel', 'à lignes ondulées', 'undulating lines'),
  t('korenbloemen', 'aux bleuets', 'cornflowers'),
  t('waterlelies', 'aux nénuphars', 'water lilies'),
  t('schaakbordpatroon', 'à damier', 'chequerboard pattern'),
  t('ruitmotief', 'à motif de losanges', 'lozenge pattern'),
  t('zonnestralen', 'à rayons de soleil', 'sunburst'),
  t('stippen', 'à pois', 'dots'),
  t('gestileerde bladeren', 'à feuillages stylisés', 'stylised leaves'),
  t('herten', 'aux cerfs', 'deer'),
  t('zeilschepen', 'aux voiliers', 'sailing ships'),
  t('het stadswapen van Gent', 'aux armes de la ville de Gand', 'the arms of the city of Ghent'),
  t('pauwenveren', 'à plumes de paon', 'peacock feathers'),
  t('spiraalmotief', 'à motif de spirales', 'spiral motif'),
  t('kraanvogels', 'aux grues', 'cranes'),
];

/** Model, service and set names. */
export const MODEL_NAMES: readonly string[] = [
  'Aurora', 'Bolero', 'Onda', 'Sfera', 'Fjord', 'Linea', 'Delta', 'Nova', 'Orbit', 'Tulipe', 'Papillon', 'Iris',
  'Perle', 'Zefier', 'Mistral', 'Kosmos', 'Prisma', 'Scheldt', 'Lys', 'Gravensteen', 'Belfort', 'Kouter', 'Arcadia',
  'Rivoli', 'Ondina', 'Lumen', 'Alba', 'Tondo', 'Boreal', 'Saga', 'Runa', 'Odette', 'Flandria', 'Brabo', 'Hélios',
  'Cirrus', 'Corolle', 'Mirage', 'Elan', 'Solstice', 'Capri', 'Tessera', 'Vela', 'Quadra', 'Polar', 'Mira',
  'Emeraude', 'Pavot', 'Camelia', 'Opaline',
];

/** Animals for figurines: Dutch, French, English. */
export const ANIMALS: readonly Tri[] = [
  t('vis', 'poisson', 'fish'),
  t('vogel', 'oiseau', 'bird'),
  t('kat', 'chat', 'cat'),
  t('hond', 'chien', 'dog'),
  t('paard', 'cheval', 'horse'),
  t('uil', 'hibou', 'owl'),
  t('haan', 'coq', 'rooster'),
  t('olifant', 'éléphant', 'elephant'),
  t('hert', 'cerf', 'deer'),
  t('konijn', 'lapin', 'rabbit'),
  t('pelikaan', 'pélican', 'pelican'),
  t('reiger', 'héron', 'heron'),
  t('beer', 'ours', 'bear'),
  t('vos', 'renard', 'fox'),
];

/** Occasions of posters: Dutch after "voor", French after "pour", English after "for". */
export const POSTER_EVENTS: readonly Tri[] = [
  t('de Wereldtentoonstelling van Gent', "l'Exposition universelle de Gand", 'the Ghent World Exhibition'),
  t('het Salon van de Libre Esthétique', 'le Salon de la Libre Esthétique', 'the Libre Esthétique salon'),
  t('de Gentse Feesten', 'les Fêtes gantoises', 'the Ghent Festivities'),
  t('een tentoonstelling van toegepaste kunst', "une exposition d'arts appliqués", 'an exhibition of applied arts'),
  t('de Floraliën', 'les Floralies', 'the Floralies'),
  t('een kunstenaarsbal', "un bal d'artistes", "an artists' ball"),
  t('de Internationale Jaarbeurs', 'la Foire internationale', 'the International Trade Fair'),
  t('een chocoladefabriek', 'une chocolaterie', 'a chocolate factory'),
  t('een zeepmerk', 'une marque de savon', 'a soap brand'),
  t('de spoorwegen', 'les chemins de fer', 'the railways'),
  t('een filmvoorstelling', 'une projection de cinéma', 'a film screening'),
  t('een jazzfestival', 'un festival de jazz', 'a jazz festival'),
  t('de Triënnale van Milaan', 'la Triennale de Milan', 'the Milan Triennale'),
  t('een designbeurs', 'un salon du design', 'a design fair'),
  t('een wielerwedstrijd', 'une course cycliste', 'a cycling race'),
  t('een kustbadplaats', 'une station balnéaire', 'a seaside resort'),
];

/** Style sentences by period: [from year, to year, nl, fr, en]. */
export const PERIOD_STYLES: readonly (readonly [number, number, Tri])[] = [
  [1600, 1729, t('barok', 'baroque', 'Baroque')],
  [1730, 1779, t('rococo', 'rococo', 'Rococo')],
  [1780, 1829, t('neoclassicisme', 'néoclassicisme', 'Neoclassicism')],
  [1830, 1889, t('historisme', 'historicisme', 'Historicism')],
  [1890, 1914, t('art nouveau', 'Art nouveau', 'Art Nouveau')],
  [1915, 1944, t('art deco', 'Art déco', 'Art Deco')],
  [1945, 1969, t('naoorlogs modernisme', "modernisme d'après-guerre", 'post-war Modernism')],
  [1970, 1994, t('postmodernisme', 'postmodernisme', 'Postmodernism')],
  [1995, 2100, t('hedendaags design', 'design contemporain', 'contemporary design')],
];

/** Style of the period a year falls in. */
export function styleOf(year: number): Tri {
  for (const [from, to, style] of PERIOD_STYLES) if (year >= from && year <= to) return style;
  return t('hedendaags design', 'design contemporain', 'contemporary design');
}

/** Characteristic features per style, used after "gekenmerkt door" / "marquée par" / "marked by". */
export const STYLE_FEATURES: readonly Tri[] = [
  t('organische lijnen', 'des lignes organiques', 'organic lines'),
  t('strakke geometrische vormen', 'des formes géométriques strictes', 'strict geometric forms'),
  t('een sobere vormgeving', 'une forme sobre', 'sober design'),
  t('felle kleuren', 'des couleurs vives', 'bright colours'),
  t('een rijke ornamentiek', 'une ornementation riche', 'rich ornament'),
  t('een speelse vorm', 'une forme ludique', 'a playful shape'),
  t('een functionele opbouw', 'une construction fonctionnelle', 'a functional construction'),
  t('verfijnd vakmanschap', 'un savoir-faire raffiné', 'refined craftsmanship'),
];

/** Photographers of the museum's images (invented). */
export const PHOTOGRAPHERS: readonly string[] = [
  'Lies Van Eeckhout',
  'Tom Verbruggen',
  'Katrien De Waele',
  'Pieter-Jan Hoste',
  'Hannelore Claeys',
  'Bram Vandeputte',
  'Sofie Van Damme',
  'Jelle De Coninck',
];

/** Acquisition methods as the registrar records them, with weights and phrases. */
export const ACQUISITION_METHODS = [
  { method: 'aankoop', weight: 40, nl: 'aankoop', fr: 'achat', en: 'purchase' },
  { method: 'schenking', weight: 30, nl: 'schenking', fr: 'don', en: 'gift' },
  { method: 'bruikleen', weight: 8, nl: 'bruikleen', fr: 'prêt', en: 'loan' },
  { method: 'legaat', weight: 7, nl: 'legaat', fr: 'legs', en: 'bequest' },
  { method: 'oningeschreven gevonden', weight: 5, nl: 'oningeschreven gevonden', fr: 'trouvé non inventorié', en: 'found uninventoried' },
  { method: 'onbekend', weight: 10, nl: 'onbekend', fr: 'inconnu', en: 'unknown' },
] as const;
export type AcquisitionMethod = (typeof ACQUISITION_METHODS)[number]['method'];

/** Exhibition themes without a variable: nl, fr, en. */
export const EXHIBITION_THEMES: readonly Tri[] = [
  t('Meesterwerken van de art nouveau', "Chefs-d'œuvre de l'Art nouveau", 'Masterpieces of Art Nouveau'),
  t('Design in Gent', 'Design à Gand', 'Design in Ghent'),
  t('Kleur in design', 'La couleur dans le design', 'Colour in design'),
  t('Vorm en functie', 'Forme et fonction', 'Form and function'),
  t('Licht!', 'Lumière !', 'Light!'),
  t('Wonen in de jaren zestig', 'Habiter les années soixante', 'Living in the sixties'),
  t('Het Belgische interieur', "L'intérieur belge", 'The Belgian interior'),
  t('Tafelen in stijl', 'Art de la table', 'Dining in style'),
  t('Ambacht en industrie', 'Artisanat et industrie', 'Craft and industry'),
  t('Het object als statement', "L'objet comme manifeste", 'The object as a statement'),
  t('Plastic fantastic', 'Plastique fantastique', 'Plastic fantastic'),
  t('Zilver en staal', 'Argent et acier', 'Silver and steel'),
  t('Breekbaar', 'Fragile', 'Fragile'),
  t('Ontwerpers van morgen', 'Les designers de demain', 'Designers of tomorrow'),
];

/** Exhibition subtitles after a designer's name. */
export const DESIGNER_SUBTITLES: readonly Tri[] = [
  t('Een leven in design', 'Une vie de design', 'A life in design'),
  t('Retrospectief', 'Rétrospective', 'Retrospective'),
  t('Vorm, kleur, materie', 'Forme, couleur, matière', 'Form, colour, matter'),
  t('Van schets tot object', "De l'esquisse à l'objet", 'From sketch to object'),
  t('Het verzamelde werk', "L'œuvre réunie", 'The collected work'),
];
