/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Request-signing secret, taken from SIGN_SECRET when the app is built; empty means unsigned. */
  readonly VITE_SIGN_SECRET: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
