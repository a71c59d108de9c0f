/** The configuration table lives in @catalogue/host-kit, shared by every host. */
export { readEnv, type HostEnv } from '@catalogue/host-kit';
