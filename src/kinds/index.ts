/** Every resource kind the service serves, in the order the catalog lists them. */
export { OBJECTS } from './objects/kind.js';
export { AGENTS } from './agents/kind.js';
export { EXHIBITIONS } from './exhibitions/kind.js';
export { CONCEPTS } from './concepts/kind.js';
