/** Reading single query values: one value per parameter, booleans and enums with their accepted forms named. */
import { ParamError, type RawQuery } from './filter.js';

/** The parameter's value, trimmed; undefined when absent or empty. A repeated parameter is refused. */
export function single(query: RawQuery, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ParamError(name, `Invalid ${name}: give it once.`);
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Every value of a repeatable parameter, each split at commas, trimmed, empty parts dropped. */
export function commaList(query: RawQuery, name: string): string[] {
  const value = query[name];
  const values = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return values.flatMap((item) => (typeof item === 'string' ? item.split(',') : [])).map((part) => part.trim()).filter((part) => part !== '');
}

/** Every value of a repeatable parameter as given (trimmed, empty ones dropped), commas kept. */
export function rawList(query: RawQuery, name: string): string[] {
  const value = query[name];
  const values = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return values.flatMap((item) => (typeof item === 'string' ? [item.trim()] : [])).filter((item) => item !== '');
}

/**
 * The labels meant by the values of a comma = AND parameter (`type`, `material`, `nationality`), lower-cased:
 * a value that is itself a known label is that label, commas and all (`kast, laag`); any other value is
 * split at its commas. So every label an index lists is a value its filter accepts.
 */
export function labelsOf(values: readonly string[], isLabel: (key: string) => boolean): string[] {
  return values.flatMap((value) => {
    const whole = value.toLowerCase();
    if (isLabel(whole)) return [whole];
    return whole.split(',').map((part) => part.trim()).filter((part) => part !== '');
  });
}

/** One of `accepted`, or a ParamError naming them. */
export function oneOf<T extends string>(query: RawQuery, name: string, accepted: readonly T[]): T | undefined {
  const value = single(query, name);
  if (value === undefined) return undefined;
  if (!(accepted as readonly string[]).includes(value)) {
    throw new ParamError(name, `Invalid ${name}. Use one of: ${accepted.join(', ')}.`);
  }
  return value as T;
}

/** `true`/`1` → true, `false`/`0` → false, absent → undefined. */
export function booleanParam(query: RawQuery, name: string): boolean | undefined {
  const value = oneOf(query, name, ['true', 'false', '1', '0']);
  return value === undefined ? undefined : value === 'true' || value === '1';
}

/** An integer year (`1920`, `-500`), or a ParamError. */
export function yearParam(name: string, value: string): number {
  if (!/^-?\d{1,4}$/.test(value)) throw new ParamError(name, `Invalid ${name}. Use a year such as 1920.`);
  return Number(value);
}
