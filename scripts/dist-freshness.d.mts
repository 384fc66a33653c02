/** The repository's root folder. */
export const ROOT: string;
/** dist/.built, written after each build. */
export const STAMP: string;
/** When dist/ was last built (0 when it never was). */
export function builtAt(): number;
/** True when dist/ is missing or older than a source file. */
export function distIsStale(): boolean;
