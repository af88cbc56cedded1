// React 18+ has useSyncExternalStore built in. wouter and @preact/signals-react import it
// through the `use-sync-external-store/shim` package for older Reacts; the build points that
// import here so the guest pages do not carry the shim's copy as well.
export { useSyncExternalStore } from 'react';
