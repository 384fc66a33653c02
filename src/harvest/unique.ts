/** The distinct values of a list in first-seen order (source lists may repeat a reference). */
export function unique(values: readonly string[]): readonly string[] {
  return values.length < 2 ? values : [...new Set(values)];
}
