/** Every resource kind the service serves, in the order the catalog lists them. */
export { OBJECTS } from './objects/kind.js';
