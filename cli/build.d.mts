/** Declarations of cli/build.mjs, for the tests that check the compiled CLI. */
export declare const ROOT: string;
export declare const DIST: string;
export interface BuildStamp {
  version: 1;
  hash: string;
  inputs: Record<string, string>;
}
export declare function statKey(file: string): string;
export declare function readStamp(dist?: string): BuildStamp | undefined;
export declare function isFresh(dist?: string): boolean;
export declare function compileCli(): Promise<{ files: Map<string, Buffer>; inputs: string[] }>;
export declare function outputHash(files: Map<string, Buffer>): Promise<string>;
export declare function buildCli(dist?: string): Promise<{ files: Map<string, Buffer>; hash: string }>;
