/** Types of server/build.mjs (a plain JavaScript module, run by scripts/start.mjs before any TypeScript loader). */
export declare const SERVER_DIST: string;
export declare const SERVER_ENTRY: string;
export declare function serverIsFresh(): boolean;
/** Bundles the server into server/dist; resolves to the number of sources bundled. */
export declare function buildServer(): Promise<number>;
/** Bundles `entry` (from the project root) into one ES module at `outfile`; resolves to the project sources bundled. */
export declare function bundle(entry: string, outfile: string): Promise<string[]>;
