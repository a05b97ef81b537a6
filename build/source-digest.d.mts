/** Types of build/source-digest.mjs, for the tests. */
export declare const SOURCES: { dir: string; ext: string }[]
export declare const DIST_DIR: string
export declare const DIGEST_NAME: string
export declare const BUILD_CONFIG: string
export declare function sourceFiles(root: string, dir: string): string[]
export declare function sourceDigest(root: string): string
export declare function distIsCurrent(root: string): boolean
