/**
 * The hand-written core of the museum thesaurus: object types, materials, techniques and sub-collections,
 * in Dutch, French and English, with their place in the hierarchy. The generator adds narrower terms to
 * reach the requested size (see ../concepts.ts). Keys are the Dutch labels.
 */

export type Facet = 'type' | 'material' | 'technique' | 'collection';
export type MaterialGroup = 'ceramic' | 'glass' | 'metal' | 'wood' | 'plastic' | 'textile' | 'paper' | 'stone' | 'leather';
export type CompoundGroup = 'furniture' | 'vessel' | 'lamp' | 'tile' | 'poster';

export interface BaseConcept {
  nl: string;
  fr: string;
  en: string;
  facet: Facet;
  /** Key (Dutch label) of the internal broader term; absent on top terms. */
  parent?: string;
  /** Pid fixed by the real thesaurus (reference/real-identifiers.json). */
  pid?: string;
  /** AAT id when the term has a well-known one; others get a stable derived id. */
  aat?: string;
  /** Word used in titles and texts when the label carries a qualifier ("keramiek (materiaal)"). */
  word?: { nl: string; fr: string; en: string };
  /** Dutch article and French gender of the word (object types). */
  art?: 'de' | 'het';
  gender?: 'm' | 'f';
  group?: MaterialGroup;
  /** Narrower compound terms the generator may form ("tuin" + "stoel"). */
  compound?: CompoundGroup;
  /** Hand-written scope note; others get one from a template. */
  scope?: { nl: string; fr?: string; en?: string };
}

/** External broader terms of the top terms (Getty AAT facets and hierarchies). */
export const TOP_BROADER: Record<Facet, { uri: string; label: string }> = {
  type: { uri: 'http://vocab.getty.edu/aat/300264092', label: 'Objects Facet' },
  material: { uri: 'http://vocab.getty.edu/aat/300264091', label: 'Materials Facet' },
  technique: { uri: 'http://vocab.getty.edu/aat/300053001', label: 'processes and techniques' },
  collection: { uri: 'http://vocab.getty.edu/aat/300025976', label: 'collections (object groupings)' },
};

type Opts = Partial<Omit<BaseConcept, 'nl' | 'fr' | 'en' | 'facet'>>;

const concepts: BaseConcept[] = [];
let facet: Facet = 'type';
let group: MaterialGroup | undefined;
function add(nl: string, fr: string, en: string, parent: string | undefined, opts: Opts = {}): void {
  const entry: BaseConcept = { nl, fr, en, facet, ...opts };
  if (parent !== undefined) entry.parent = parent;
  if (facet === 'material' && group && !entry.group) entry.group = group;
  concepts.push(entry);
}
const ty = (nl: string, fr: string, en: string, parent: string | undefined, art: 'de' | 'het', gender: 'm' | 'f', opts: Opts = {}): void =>
  add(nl, fr, en, parent, { art, gender, ...opts });

// Object types ------------------------------------------------------------------------------------------
facet = 'type';
ty('meubilair', 'mobilier', 'furniture', undefined, 'het', 'm', { aat: '300037680' });
ty('zitmeubilair', 'sièges', 'seating furniture', 'meubilair', 'het', 'm', { aat: '300037678' });
ty('stoel', 'chaise', 'chair', 'zitmeubilair', 'de', 'f', { compound: 'furniture', aat: '300025846' });
ty('klapstoel', 'chaise pliante', 'folding chair', 'stoel', 'de', 'f', {
  scope: {
    nl: 'Stoel die kan worden opgevouwen, zodat hij plat en gemakkelijk op te bergen is.',
    fr: 'Chaise qui se replie pour être rangée à plat.',
    en: 'Chair that folds flat for storage.',
  },
});
ty('stapelstoel', 'chaise empilable', 'stacking chair', 'stoel', 'de', 'f');
ty('eetkamerstoel', 'chaise de salle à manger', 'dining chair', 'stoel', 'de', 'f');
ty('kinderstoel', "chaise d'enfant", "child's chair", 'stoel', 'de', 'f');
ty('schommelstoel', 'chaise à bascule', 'rocking chair', 'stoel', 'de', 'f');
ty('fauteuil', 'fauteuil', 'armchair', 'zitmeubilair', 'de', 'm', { compound: 'furniture' });
ty('clubfauteuil', 'fauteuil club', 'club chair', 'fauteuil', 'de', 'm');
ty('kruk', 'tabouret', 'stool', 'zitmeubilair', 'de', 'm', { compound: 'furniture' });
ty('bank (zitmeubel)', 'canapé', 'sofa', 'zitmeubilair', 'de', 'm', { word: { nl: 'bank', fr: 'canapé', en: 'sofa' } });
ty('tafel', 'table', 'table', 'meubilair', 'de', 'f', { compound: 'furniture' });
ty('bijzettafel', 'guéridon', 'side table', 'tafel', 'de', 'm');
ty('salontafel', 'table basse', 'coffee table', 'tafel', 'de', 'f');
ty('eettafel', 'table de salle à manger', 'dining table', 'tafel', 'de', 'f');
ty('bureau (meubel)', 'bureau', 'desk', 'meubilair', 'het', 'm', { word: { nl: 'bureau', fr: 'bureau', en: 'desk' } });
ty('bergmeubilair', 'meubles de rangement', 'storage furniture', 'meubilair', 'het', 'm');
ty('kast', 'armoire', 'cupboard', 'bergmeubilair', 'de', 'f', { compound: 'furniture' });
ty('boekenkast', 'bibliothèque', 'bookcase', 'kast', 'de', 'f');
ty('dressoir', 'buffet', 'sideboard', 'bergmeubilair', 'het', 'm');
ty('kabinet (meubel)', 'cabinet', 'cabinet', 'bergmeubilair', 'het', 'm', { word: { nl: 'kabinet', fr: 'cabinet', en: 'cabinet' } });
ty('secretaire', 'secrétaire', 'secretaire', 'bergmeubilair', 'de', 'm');
ty('vaatwerk', 'récipients', 'vessels', undefined, 'het', 'm', { aat: '300194567' });
ty('vaas', 'vase', 'vase', 'vaatwerk', 'de', 'm', { aat: '300132254' });
ty('solifleur', 'soliflore', 'bud vase', 'vaas', 'de', 'm');
ty('pronkvaas', "vase d'apparat", 'display vase', 'vaas', 'de', 'm');
ty('kom', 'bol', 'bowl', 'vaatwerk', 'de', 'm', { compound: 'vessel' });
ty('schaal', 'coupe', 'dish', 'vaatwerk', 'de', 'f', { compound: 'vessel' });
ty('fruitschaal', 'coupe à fruits', 'fruit bowl', 'schaal', 'de', 'f');
ty('jardinière', 'jardinière', 'jardinière', 'vaatwerk', 'de', 'f');
ty('kan', 'pichet', 'jug', 'vaatwerk', 'de', 'm', { compound: 'vessel' });
ty('melkkan', 'pot à lait', 'milk jug', 'kan', 'de', 'm');
ty('karaf', 'carafe', 'carafe', 'kan', 'de', 'f');
ty('pot', 'pot', 'pot', 'vaatwerk', 'de', 'm', { compound: 'vessel' });
ty('theepot', 'théière', 'teapot', 'pot', 'de', 'f');
ty('koffiepot', 'cafetière', 'coffee pot', 'pot', 'de', 'f');
ty('suikerpot', 'sucrier', 'sugar bowl', 'pot', 'de', 'm');
ty('theebusje', 'boîte à thé', 'tea caddy', 'vaatwerk', 'het', 'f');
ty('microgolfovenschaal', 'plat pour micro-ondes', 'microwave dish', 'vaatwerk', 'de', 'm');
ty('drinkglas', 'verre', 'drinking glass', 'vaatwerk', 'het', 'm', { compound: 'vessel', word: { nl: 'glas', fr: 'verre', en: 'glass' } });
ty('kelk', 'verre à pied', 'stemmed glass', 'drinkglas', 'de', 'm');
ty('bokaal', 'gobelet couvert', 'covered goblet', 'drinkglas', 'de', 'm');
ty('beker', 'gobelet', 'beaker', 'vaatwerk', 'de', 'm', { compound: 'vessel' });
ty('kop', 'tasse', 'cup', 'vaatwerk', 'de', 'f', { compound: 'vessel' });
ty('kop en schotel', 'tasse et soucoupe', 'cup and saucer', 'kop', 'de', 'f');
ty('bord', 'assiette', 'plate', 'vaatwerk', 'het', 'f', { compound: 'vessel' });
ty('schotel', 'soucoupe', 'saucer', 'vaatwerk', 'de', 'f');
ty('dienblad', 'plateau', 'tray', 'vaatwerk', 'het', 'm');
ty('deksel', 'couvercle', 'lid', 'vaatwerk', 'het', 'm');
ty('tafelgerei', 'arts de la table', 'tableware', undefined, 'het', 'm');
ty('bestek', 'couverts', 'cutlery', 'tafelgerei', 'het', 'm');
ty('lepel', 'cuillère', 'spoon', 'bestek', 'de', 'f');
ty('vork', 'fourchette', 'fork', 'bestek', 'de', 'f');
ty('mes', 'couteau', 'knife', 'bestek', 'het', 'm');
ty('taartschep', 'pelle à tarte', 'cake server', 'bestek', 'de', 'f');
ty('pepervat', 'poivrier', 'pepper pot', 'tafelgerei', 'het', 'm', {
  pid: '530000049',
  scope: { nl: 'Klein vat met geperforeerd deksel om gemalen peper over spijzen te strooien.', en: 'Small vessel with a pierced lid for sprinkling ground pepper.' },
});
ty('zoutvat', 'salière', 'salt cellar', 'tafelgerei', 'het', 'f');
ty('kandelaar', 'chandelier', 'candlestick', 'tafelgerei', 'de', 'm');
ty('servetring', 'rond de serviette', 'napkin ring', 'tafelgerei', 'de', 'm');
ty('verlichting', 'luminaires', 'lighting devices', undefined, 'de', 'm');
ty('lamp', 'lampe', 'lamp', 'verlichting', 'de', 'f', { compound: 'lamp' });
ty('tafellamp', 'lampe de table', 'table lamp', 'lamp', 'de', 'f');
ty('staande lamp', 'lampadaire', 'floor lamp', 'lamp', 'de', 'm');
ty('hanglamp', 'suspension', 'pendant lamp', 'lamp', 'de', 'f');
ty('wandlamp', 'applique', 'wall lamp', 'lamp', 'de', 'f');
ty('bureaulamp', 'lampe de bureau', 'desk lamp', 'lamp', 'de', 'f');
ty('kroonluchter', 'lustre', 'chandelier', 'verlichting', 'de', 'm');
ty('bouwkeramiek', 'céramique architecturale', 'architectural ceramics', undefined, 'de', 'f');
ty('tegel', 'carreau', 'tile', 'bouwkeramiek', 'de', 'm', { compound: 'tile' });
ty('wandtegel', 'carreau mural', 'wall tile', 'tegel', 'de', 'm');
ty('vloertegel', 'carreau de sol', 'floor tile', 'tegel', 'de', 'm');
ty('tegeltableau', 'tableau de carreaux', 'tile panel', 'bouwkeramiek', 'het', 'm');
ty('grafisch ontwerp', 'design graphique', 'graphic design', undefined, 'het', 'm');
ty('affiche', 'affiche', 'poster', 'grafisch ontwerp', 'de', 'f', { compound: 'poster', aat: '300027221' });
ty('reclameaffiche', 'affiche publicitaire', 'advertising poster', 'affiche', 'de', 'f');
ty('tentoonstellingsaffiche', "affiche d'exposition", 'exhibition poster', 'affiche', 'de', 'f');
ty('prent', 'estampe', 'print', 'grafisch ontwerp', 'de', 'f');
ty('textiel', 'textiles', 'textiles', undefined, 'het', 'm');
ty('vloerkleed', 'tapis', 'rug', 'textiel', 'het', 'm');
ty('tapijt', 'tapis', 'carpet', 'textiel', 'het', 'm');
ty('wandtapijt', 'tapisserie', 'tapestry', 'textiel', 'het', 'f');
ty('kussen', 'coussin', 'cushion', 'textiel', 'het', 'm');
ty('stofstaal', 'échantillon de tissu', 'textile sample', 'textiel', 'de', 'm');
ty('kant (textiel)', 'dentelle', 'lace', 'textiel', 'de', 'f', { word: { nl: 'kant', fr: 'dentelle', en: 'lace' } });
ty('sieraden', 'bijoux', 'jewellery', undefined, 'de', 'm');
ty('broche', 'broche', 'brooch', 'sieraden', 'de', 'f');
ty('halssnoer', 'collier', 'necklace', 'sieraden', 'het', 'm');
ty('hanger (sieraad)', 'pendentif', 'pendant', 'sieraden', 'de', 'm', { word: { nl: 'hanger', fr: 'pendentif', en: 'pendant' } });
ty('ring (sieraad)', 'bague', 'ring', 'sieraden', 'de', 'f', { word: { nl: 'ring', fr: 'bague', en: 'ring' } });
ty('armband', 'bracelet', 'bracelet', 'sieraden', 'de', 'm');
ty('oorbel', "boucle d'oreille", 'earring', 'sieraden', 'de', 'f');
ty('beeldhouwwerk', 'sculpture', 'sculpture', undefined, 'het', 'f');
ty('beeldje', 'figurine', 'figurine', 'beeldhouwwerk', 'het', 'f');
ty('dierfiguur', 'figurine animalière', 'animal figurine', 'beeldje', 'de', 'f');
ty('buste', 'buste', 'bust', 'beeldhouwwerk', 'de', 'm');
ty('doos', 'boîte', 'box', undefined, 'de', 'f');
ty('juwelenkistje', 'coffret à bijoux', 'jewellery box', 'doos', 'het', 'm');
ty('tabaksdoos', 'tabatière', 'tobacco box', 'doos', 'de', 'f');
ty('bonbonnière', 'bonbonnière', 'bonbonnière', 'doos', 'de', 'f');
ty('bewaardoos', 'boîte de conservation', 'storage container', 'doos', 'de', 'f');
ty('uurwerk', 'horloge', 'timepiece', undefined, 'het', 'f');
ty('klok', 'pendule', 'clock', 'uurwerk', 'de', 'f');
ty('tafelklok', 'pendulette', 'table clock', 'klok', 'de', 'f');
ty('wekker', 'réveil', 'alarm clock', 'klok', 'de', 'm');

// Materials ---------------------------------------------------------------------------------------------
facet = 'material';
group = undefined;
add('materiaal', 'matériau', 'material', undefined, { aat: '300010358' });
group = 'ceramic';
add('keramiek (materiaal)', 'céramique', 'ceramic', 'materiaal', { pid: '530008405', word: { nl: 'keramiek', fr: 'céramique', en: 'ceramic' } });
add('porselein', 'porcelaine', 'porcelain', 'keramiek (materiaal)', { aat: '300010662' });
add('biscuit (porselein)', 'biscuit', 'biscuit porcelain', 'porselein', { word: { nl: 'biscuit', fr: 'biscuit', en: 'biscuit porcelain' } });
add('aardewerk', 'terre cuite', 'earthenware', 'keramiek (materiaal)');
add('faience', 'faïence', 'faience', 'aardewerk');
add('majolica', 'majolique', 'maiolica', 'aardewerk');
add('steengoed', 'grès', 'stoneware', 'keramiek (materiaal)');
group = 'glass';
add('glas', 'verre', 'glass', 'materiaal', { pid: '530006321', aat: '300010797' });
add('kristal', 'cristal', 'crystal', 'glas');
add('opaalglas', 'verre opalin', 'opal glass', 'glas');
add('pâte de verre', 'pâte de verre', 'pâte de verre', 'glas');
add('persglas', 'verre pressé', 'pressed glass', 'glas');
group = 'metal';
add('metaal', 'métal', 'metal', 'materiaal');
add('edelmetaal', 'métal précieux', 'precious metal', 'metaal');
add('zilver', 'argent', 'silver', 'edelmetaal', { aat: '300011029' });
add('goud', 'or', 'gold', 'edelmetaal');
add('tin', 'étain', 'pewter', 'metaal');
add('koperlegering', 'alliage de cuivre', 'copper alloy', 'metaal');
add('koper', 'cuivre', 'copper', 'koperlegering');
add('messing', 'laiton', 'brass', 'koperlegering');
add('brons', 'bronze', 'bronze', 'koperlegering');
add('staal', 'acier', 'steel', 'metaal');
add('roestvrij staal', 'acier inoxydable', 'stainless steel', 'staal');
add('chroomstaal', 'acier chromé', 'chrome-plated steel', 'staal');
add('aluminium', 'aluminium', 'aluminium', 'metaal');
add('ijzer', 'fer', 'iron', 'metaal');
add('email', 'émail', 'enamel', 'materiaal');
group = 'wood';
add('hout', 'bois', 'wood', 'materiaal', { aat: '300011914' });
add('eik', 'chêne', 'oak', 'hout', { aat: '300012264' });
add('beuk', 'hêtre', 'beech', 'hout');
add('notelaar', 'noyer', 'walnut', 'hout');
add('mahonie', 'acajou', 'mahogany', 'hout');
add('teak', 'teck', 'teak', 'hout');
add('palissander', 'palissandre', 'rosewood', 'hout');
add('multiplex', 'contreplaqué', 'plywood', 'hout');
add('rotan', 'rotin', 'rattan', 'materiaal');
group = 'plastic';
add('kunststof', 'matière plastique', 'plastic', 'materiaal');
add('polypropyleen', 'polypropylène', 'polypropylene', 'kunststof');
add('polyetherimide', 'polyétherimide', 'polyetherimide', 'kunststof');
add('ABS', 'ABS', 'ABS', 'kunststof');
add('melamine', 'mélamine', 'melamine', 'kunststof');
add('plexiglas', 'plexiglas', 'acrylic glass', 'kunststof');
add('polyester', 'polyester', 'polyester', 'kunststof');
group = 'textile';
add('textiel (materiaal)', 'textile', 'textile', 'materiaal', { word: { nl: 'textiel', fr: 'textile', en: 'textile' } });
add('wol', 'laine', 'wool', 'textiel (materiaal)');
add('zijde', 'soie', 'silk', 'textiel (materiaal)');
add('katoen', 'coton', 'cotton', 'textiel (materiaal)');
add('linnen', 'lin', 'linen', 'textiel (materiaal)');
add('jute', 'jute', 'jute', 'textiel (materiaal)');
group = 'paper';
add('papier', 'papier', 'paper', 'materiaal');
add('karton', 'carton', 'cardboard', 'papier');
group = 'leather';
add('leder', 'cuir', 'leather', 'materiaal');
add('parelmoer', 'nacre', 'mother-of-pearl', 'materiaal');
group = 'stone';
add('steen', 'pierre', 'stone', 'materiaal');
add('marmer', 'marbre', 'marble', 'steen');
group = undefined;

// Techniques --------------------------------------------------------------------------------------------
facet = 'technique';
add('technieken', 'techniques', 'techniques', undefined);
add('vormgevingstechniek', 'technique de façonnage', 'forming technique', 'technieken');
add('vormgieten', 'coulage', 'slip casting', 'vormgevingstechniek');
add('draaien', 'tournage', 'throwing', 'vormgevingstechniek');
add('persen', 'pressage', 'pressing', 'vormgevingstechniek');
add('glasblazen', 'soufflage du verre', 'glassblowing', 'vormgevingstechniek');
add('gieten', 'fonte', 'casting', 'vormgevingstechniek');
add('smeden', 'forgeage', 'forging', 'vormgevingstechniek');
add('drijven', 'repoussé', 'repoussé', 'vormgevingstechniek');
add('buigen', 'cintrage', 'bending', 'vormgevingstechniek');
add('stoombuigen', 'cintrage à la vapeur', 'steam bending', 'buigen');
add('spuitgieten', 'moulage par injection', 'injection moulding', 'vormgevingstechniek');
add('houtsnijden', 'sculpture sur bois', 'wood carving', 'vormgevingstechniek');
add('oppervlaktebehandeling', 'traitement de surface', 'surface treatment', 'technieken');
add('verglazen', 'vitrification', 'vitrification', 'oppervlaktebehandeling');
add('glazuren', 'glaçure', 'glazing', 'oppervlaktebehandeling');
add('verchromen', 'chromage', 'chromium plating', 'oppervlaktebehandeling');
add('vergulden', 'dorure', 'gilding', 'oppervlaktebehandeling');
add('verzilveren', 'argenture', 'silver plating', 'oppervlaktebehandeling');
add('emailleren', 'émaillage', 'enamelling', 'oppervlaktebehandeling');
add('lakken', 'laquage', 'lacquering', 'oppervlaktebehandeling');
add('graveren', 'gravure', 'engraving', 'oppervlaktebehandeling');
add('etsen', "gravure à l'acide", 'etching', 'oppervlaktebehandeling');
add('slijpen', 'taille', 'cutting', 'oppervlaktebehandeling');
add('polijsten', 'polissage', 'polishing', 'oppervlaktebehandeling');
add('decoratietechniek', 'technique décorative', 'decorative technique', 'technieken');
add('schilderkunst (discipline)', 'peinture', 'painting', 'decoratietechniek', { word: { nl: 'beschildering', fr: 'peinture', en: 'painting' } });
add('zeefdruk', 'sérigraphie', 'screen printing', 'decoratietechniek');
add('lithografie', 'lithographie', 'lithography', 'decoratietechniek');
add('offsetdruk', 'impression offset', 'offset printing', 'decoratietechniek');
add('houtsnede', 'gravure sur bois', 'woodcut', 'decoratietechniek');
add('transferdruk', 'impression par transfert', 'transfer printing', 'decoratietechniek');
add('marqueterie', 'marqueterie', 'marquetry', 'decoratietechniek');
add('thermische behandeling', 'traitement thermique', 'thermal process', 'technieken');
add('bakken', 'cuisson', 'firing', 'thermische behandeling');
add('textieltechniek', 'technique textile', 'textile technique', 'technieken');
add('weven', 'tissage', 'weaving', 'textieltechniek');
add('tapijtknopen', 'nouage de tapis', 'carpet knotting', 'textieltechniek');
add('borduren', 'broderie', 'embroidery', 'textieltechniek');
add('kantklossen', 'dentelle aux fuseaux', 'bobbin lace making', 'textieltechniek');
add('bedrukken', 'impression textile', 'textile printing', 'textieltechniek');
add('verbindingstechniek', "technique d'assemblage", 'joining technique', 'technieken');
add('solderen', 'brasage', 'soldering', 'verbindingstechniek');
add('lassen', 'soudage', 'welding', 'verbindingstechniek');
add('zetten', 'sertissage', 'stone setting', 'verbindingstechniek');

// Sub-collections ---------------------------------------------------------------------------------------
facet = 'collection';
add('deelcollecties', 'collections', 'collections', undefined);
add('oude kunst en ambachten', 'arts anciens et artisanat', 'early decorative arts', 'deelcollecties');
add('art nouveau en art deco', 'Art nouveau et Art déco', 'Art Nouveau and Art Deco', 'deelcollecties');
add('art nouveau', 'Art nouveau', 'Art Nouveau', 'art nouveau en art deco');
add('art deco', 'Art déco', 'Art Deco', 'art nouveau en art deco');
add('design na 1945', 'design après 1945', 'design after 1945', 'deelcollecties');
add('Scandinavisch design', 'design scandinave', 'Scandinavian design', 'design na 1945');
add('postmodern design', 'design postmoderne', 'postmodern design', 'design na 1945');
add('Memphis-collectie', 'collection Memphis', 'Memphis collection', 'postmodern design');
add('hedendaags design', 'design contemporain', 'contemporary design', 'design na 1945');
add('tegelcollectie', 'collection de carreaux', 'tile collection', 'deelcollecties');
add('zilvercollectie', "collection d'argenterie", 'silver collection', 'deelcollecties');
add('glascollectie', 'collection de verre', 'glass collection', 'deelcollecties');
add('affichecollectie', "collection d'affiches", 'poster collection', 'deelcollecties');
add('textielcollectie', 'collection textile', 'textile collection', 'deelcollecties');
add('juwelencollectie', 'collection de bijoux', 'jewellery collection', 'deelcollecties');

export const BASE_CONCEPTS: readonly BaseConcept[] = concepts;

/** The title word of a base concept (its label without the qualifier). */
export function wordOf(c: BaseConcept): { nl: string; fr: string; en: string } {
  return c.word ?? { nl: c.nl, fr: c.fr, en: c.en };
}

/** Prefixes that form narrower compound terms, per compound group: Dutch prefix, French and English modifier. */
export const COMPOUND_PREFIXES: Record<CompoundGroup, readonly (readonly [string, string, string])[]> = {
  furniture: [
    ['tuin', 'de jardin', 'garden'],
    ['kinder', "d'enfant", "children's"],
    ['kantoor', 'de bureau', 'office'],
    ['keuken', 'de cuisine', 'kitchen'],
    ['salon', 'de salon', 'lounge'],
    ['bar', 'de bar', 'bar'],
    ['terras', 'de terrasse', 'terrace'],
    ['café', 'de café', 'café'],
    ['school', "d'école", 'school'],
    ['kerk', "d'église", 'church'],
    ['wachtkamer', "de salle d'attente", 'waiting-room'],
    ['slaapkamer', 'de chambre', 'bedroom'],
    ['eetkamer', 'de salle à manger', 'dining'],
    ['hotel', "d'hôtel", 'hotel'],
    ['bibliotheek', 'de bibliothèque', 'library'],
    ['theater', 'de théâtre', 'theatre'],
  ],
  vessel: [
    ['thee', 'à thé', 'tea'],
    ['koffie', 'à café', 'coffee'],
    ['melk', 'à lait', 'milk'],
    ['suiker', 'à sucre', 'sugar'],
    ['bloem', 'à fleurs', 'flower'],
    ['water', 'à eau', 'water'],
    ['wijn', 'à vin', 'wine'],
    ['bier', 'à bière', 'beer'],
    ['soep', 'à soupe', 'soup'],
    ['fruit', 'à fruits', 'fruit'],
    ['salade', 'à salade', 'salad'],
    ['taart', 'à gâteau', 'cake'],
    ['room', 'à crème', 'cream'],
    ['punch', 'à punch', 'punch'],
    ['likeur', 'à liqueur', 'liqueur'],
  ],
  lamp: [
    ['lees', 'de lecture', 'reading'],
    ['nacht', 'de chevet', 'bedside'],
    ['tuin', 'de jardin', 'garden'],
    ['piano', 'de piano', 'piano'],
    ['olie', 'à huile', 'oil'],
    ['petroleum', 'à pétrole', 'paraffin'],
    ['plafond', 'de plafond', 'ceiling'],
    ['vloer', 'de sol', 'floor'],
    ['kantoor', 'de bureau', 'office'],
  ],
  tile: [
    ['haard', 'de cheminée', 'fireplace'],
    ['gevel', 'de façade', 'façade'],
    ['keuken', 'de cuisine', 'kitchen'],
    ['badkamer', 'de salle de bains', 'bathroom'],
    ['sier', 'décoratif', 'decorative'],
    ['plint', 'de plinthe', 'skirting'],
    ['reclame', 'publicitaire', 'advertising'],
  ],
  poster: [
    ['film', 'de cinéma', 'film'],
    ['reis', 'touristique', 'travel'],
    ['verkiezings', 'électorale', 'election'],
    ['theater', 'de théâtre', 'theatre'],
    ['concert', 'de concert', 'concert'],
    ['propaganda', 'de propagande', 'propaganda'],
    ['spoorweg', 'de chemin de fer', 'railway'],
    ['sport', 'sportive', 'sports'],
    ['beurs', 'de foire', 'trade fair'],
  ],
};

/** Style and period qualifiers for narrower terms ("stoel (art deco)"). */
export const STYLE_QUALIFIERS: readonly (readonly [string, string, string])[] = [
  ['art nouveau', 'Art nouveau', 'Art Nouveau'],
  ['art deco', 'Art déco', 'Art Deco'],
  ['modernisme', 'modernisme', 'Modernism'],
  ['postmodernisme', 'postmodernisme', 'Postmodernism'],
  ['biedermeier', 'Biedermeier', 'Biedermeier'],
  ['neogotiek', 'néogothique', 'Gothic Revival'],
  ['neorenaissance', 'néo-Renaissance', 'Renaissance Revival'],
  ['rococo', 'rococo', 'Rococo'],
  ['empire', 'Empire', 'Empire'],
  ['Lodewijk XVI', 'Louis XVI', 'Louis XVI'],
  ['functionalisme', 'fonctionnalisme', 'Functionalism'],
  ['Bauhaus', 'Bauhaus', 'Bauhaus'],
  ['Scandinavisch design', 'design scandinave', 'Scandinavian design'],
  ['pop art', 'pop art', 'Pop Art'],
  ['Arts and Crafts', 'Arts & Crafts', 'Arts and Crafts'],
  ['Wiener Werkstätte', 'Wiener Werkstätte', 'Wiener Werkstätte'],
  ['De Stijl', 'De Stijl', 'De Stijl'],
  ['brutalisme', 'brutalisme', 'Brutalism'],
  ['historisme', 'historicisme', 'Historicism'],
  ['streamline', 'streamline', 'Streamline Moderne'],
];
