/** The query string as Express parses it: a value, or a list when a parameter is repeated. */
export type RawQuery = Readonly<Record<string, unknown>>;
