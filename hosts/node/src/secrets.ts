/** Secrets of the demo default live in @catalogue/host-kit, shared by every CLI host. */
export { persistentSecret } from '@catalogue/host-kit';
