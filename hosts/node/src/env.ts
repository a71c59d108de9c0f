/** The configuration table lives in @catalogue/host-kit, shared by every host. */
export { type HostEnv, readEnv } from '@catalogue/host-kit';
