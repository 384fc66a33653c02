/**
 * Places with their GeoNames feature ids (https://sws.geonames.org/<id>/) and Dutch, French and English
 * names. The ids of the large cities are the GeoNames ids; those of small places are illustrative.
 */
import type { CountryCode } from './countries.js';

export interface PlaceEntry {
  nl: string;
  fr: string;
  en: string;
  geonames: number;
  country: CountryCode;
}

const p = (nl: string, fr: string, en: string, geonames: number, country: CountryCode): PlaceEntry => ({ nl, fr, en, geonames, country });

export const PLACES = {
  gent: p('Gent', 'Gand', 'Ghent', 2797656, 'BEL'),
  brussel: p('Brussel', 'Bruxelles', 'Brussels', 2800866, 'BEL'),
  antwerpen: p('Antwerpen', 'Anvers', 'Antwerp', 2803138, 'BEL'),
  brugge: p('Brugge', 'Bruges', 'Bruges', 2800931, 'BEL'),
  leuven: p('Leuven', 'Louvain', 'Leuven', 2792482, 'BEL'),
  luik: p('Luik', 'Liège', 'Liège', 2792413, 'BEL'),
  mechelen: p('Mechelen', 'Malines', 'Mechelen', 2791537, 'BEL'),
  kortrijk: p('Kortrijk', 'Courtrai', 'Kortrijk', 2794055, 'BEL'),
  namen: p('Namen', 'Namur', 'Namur', 2790471, 'BEL'),
  bergen: p('Bergen', 'Mons', 'Mons', 2790869, 'BEL'),
  oostende: p('Oostende', 'Ostende', 'Ostend', 2789786, 'BEL'),
  aalst: p('Aalst', 'Alost', 'Aalst', 2803448, 'BEL'),
  oudenaarde: p('Oudenaarde', 'Audenarde', 'Oudenaarde', 2789529, 'BEL'),
  laLouviere: p('La Louvière', 'La Louvière', 'La Louvière', 2792165, 'BEL'),
  seraing: p('Seraing', 'Seraing', 'Seraing', 2786578, 'BEL'),
  etikhove: p('Etikhove', 'Etikhove', 'Etikhove', 2798301, 'BEL'),
  amsterdam: p('Amsterdam', 'Amsterdam', 'Amsterdam', 2759794, 'NLD'),
  rotterdam: p('Rotterdam', 'Rotterdam', 'Rotterdam', 2747891, 'NLD'),
  denHaag: p('Den Haag', 'La Haye', 'The Hague', 2747373, 'NLD'),
  utrecht: p('Utrecht', 'Utrecht', 'Utrecht', 2745912, 'NLD'),
  eindhoven: p('Eindhoven', 'Eindhoven', 'Eindhoven', 2756253, 'NLD'),
  delft: p('Delft', 'Delft', 'Delft', 2757345, 'NLD'),
  maastricht: p('Maastricht', 'Maastricht', 'Maastricht', 2751283, 'NLD'),
  leerdam: p('Leerdam', 'Leerdam', 'Leerdam', 2751792, 'NLD'),
  parijs: p('Parijs', 'Paris', 'Paris', 2988507, 'FRA'),
  lyon: p('Lyon', 'Lyon', 'Lyon', 2996944, 'FRA'),
  limoges: p('Limoges', 'Limoges', 'Limoges', 2998286, 'FRA'),
  nancy: p('Nancy', 'Nancy', 'Nancy', 2990999, 'FRA'),
  rijsel: p('Rijsel', 'Lille', 'Lille', 2998324, 'FRA'),
  straatsburg: p('Straatsburg', 'Strasbourg', 'Strasbourg', 2973783, 'FRA'),
  bordeaux: p('Bordeaux', 'Bordeaux', 'Bordeaux', 3031582, 'FRA'),
  sevres: p('Sèvres', 'Sèvres', 'Sèvres', 2975050, 'FRA'),
  milaan: p('Milaan', 'Milan', 'Milan', 3173435, 'ITA'),
  bologna: p('Bologna', 'Bologne', 'Bologna', 3181928, 'ITA'),
  turijn: p('Turijn', 'Turin', 'Turin', 3165524, 'ITA'),
  florence: p('Florence', 'Florence', 'Florence', 3176959, 'ITA'),
  venetie: p('Venetië', 'Venise', 'Venice', 3164603, 'ITA'),
  rome: p('Rome', 'Rome', 'Rome', 3169070, 'ITA'),
  como: p('Como', 'Côme', 'Como', 3178229, 'ITA'),
  ferrara: p('Ferrara', 'Ferrare', 'Ferrara', 3177090, 'ITA'),
  berlijn: p('Berlijn', 'Berlin', 'Berlin', 2950159, 'DEU'),
  munchen: p('München', 'Munich', 'Munich', 2867714, 'DEU'),
  keulen: p('Keulen', 'Cologne', 'Cologne', 2886242, 'DEU'),
  hamburg: p('Hamburg', 'Hambourg', 'Hamburg', 2911298, 'DEU'),
  frankfurt: p('Frankfurt am Main', 'Francfort-sur-le-Main', 'Frankfurt am Main', 2925533, 'DEU'),
  stuttgart: p('Stuttgart', 'Stuttgart', 'Stuttgart', 2825297, 'DEU'),
  dresden: p('Dresden', 'Dresde', 'Dresden', 2935022, 'DEU'),
  weimar: p('Weimar', 'Weimar', 'Weimar', 2812482, 'DEU'),
  bremen: p('Bremen', 'Brême', 'Bremen', 2944388, 'DEU'),
  chemnitz: p('Chemnitz', 'Chemnitz', 'Chemnitz', 2940132, 'DEU'),
  wiesbaden: p('Wiesbaden', 'Wiesbaden', 'Wiesbaden', 2809346, 'DEU'),
  velten: p('Velten', 'Velten', 'Velten', 2817813, 'DEU'),
  kopenhagen: p('Kopenhagen', 'Copenhague', 'Copenhagen', 2618425, 'DNK'),
  aarhus: p('Aarhus', 'Aarhus', 'Aarhus', 2624652, 'DNK'),
  stockholm: p('Stockholm', 'Stockholm', 'Stockholm', 2673730, 'SWE'),
  goteborg: p('Göteborg', 'Göteborg', 'Gothenburg', 2711537, 'SWE'),
  helsinki: p('Helsinki', 'Helsinki', 'Helsinki', 658225, 'FIN'),
  hanko: p('Hanko', 'Hanko', 'Hanko', 659101, 'FIN'),
  oslo: p('Oslo', 'Oslo', 'Oslo', 3143244, 'NOR'),
  wenen: p('Wenen', 'Vienne', 'Vienna', 2761369, 'AUT'),
  innsbruck: p('Innsbruck', 'Innsbruck', 'Innsbruck', 2775220, 'AUT'),
  zurich: p('Zürich', 'Zurich', 'Zurich', 2657896, 'CHE'),
  londen: p('Londen', 'Londres', 'London', 2643743, 'GBR'),
  glasgow: p('Glasgow', 'Glasgow', 'Glasgow', 2648579, 'GBR'),
  newYork: p('New York', 'New York', 'New York', 5128581, 'USA'),
  tokio: p('Tokio', 'Tokyo', 'Tokyo', 1850147, 'JPN'),
  boedapest: p('Boedapest', 'Budapest', 'Budapest', 3054643, 'HUN'),
} as const satisfies Record<string, PlaceEntry>;

export type PlaceKey = keyof typeof PLACES;
export const PLACE_KEYS = Object.keys(PLACES) as PlaceKey[];

/** Places of a country (for agents and production places). */
export function placesOf(country: CountryCode): PlaceKey[] {
  return PLACE_KEYS.filter((k) => PLACES[k].country === country);
}

/** The source-format place: GeoNames URI and Dutch label. */
export function placeRef(key: PlaceKey): { uri: string; label: string } {
  const place = PLACES[key];
  return { uri: `https://sws.geonames.org/${place.geonames}/`, label: place.nl };
}
