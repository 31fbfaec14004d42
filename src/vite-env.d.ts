/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Request-signing secret, taken from SIGN_SECRET when the app is built; empty means unsigned. */
  readonly VITE_SIGN_SECRET: string;
  /** Request timeout in ms, from the build environment; unset or invalid means 30 s. */
  readonly VITE_REQUEST_TIMEOUT_MS?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
