/** Unit conversion and lexical forms for harvested values. */
import type { Dimension } from './schema.js';

const SHIFT: Record<Dimension['unit'], number> = { mm: -1, cm: 0, m: 2 };
/** At most this many decimals in cm (a hundredth of a millimetre): hides float noise of the source. */
const MAX_DECIMALS = 3;

/**
 * The value in centimetres as a plain decimal spelling (the lexical form the graph writes as xsd:double). The conversion moves the decimal point in
 * the number's shortest decimal spelling, so 135 mm is exactly "13.5", never 13.500000000000002.
 */
export function centimetres(value: number, unit: Dimension['unit']): string {
  const exact = shiftDecimal(value, SHIFT[unit]);
  const point = exact.indexOf('.');
  if (point === -1 || exact.length - point - 1 <= MAX_DECIMALS) return exact;
  const rounded = trimZeros(Number(exact).toFixed(MAX_DECIMALS));
  // A positive measurement must not round to zero: keep its exact spelling instead.
  return rounded === '0' ? exact : rounded;
}

/** `value` × 10^shift as a plain decimal string (no exponent), for a finite non-negative value. */
export function shiftDecimal(value: number, shift: number): string {
  const [mantissa = '0', exponent] = String(value).split('e');
  const [intPart = '0', fracPart = ''] = mantissa.split('.');
  const digits = intPart + fracPart;
  const point = intPart.length + (exponent === undefined ? 0 : Number(exponent)) + shift;
  let text: string;
  if (point <= 0) text = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) text = digits + '0'.repeat(point - digits.length);
  else text = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return trimZeros(text);
}

function trimZeros(text: string): string {
  let result = text.replace(/^0+(?=\d)/, '');
  if (result.includes('.')) result = result.replace(/0+$/, '').replace(/\.$/, '');
  return result;
}

/** URL-safe slug of a Dutch label (acquisition methods): lower case, no diacritics, `-` between words. */
export function slug(label: string): string {
  const plain = label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return plain === '' ? encodeURIComponent(label.trim().toLowerCase()) : plain;
}
