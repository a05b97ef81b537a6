/** Types of build/node-version.mjs, for the tests. */
export declare const SUPPORTED_NODE: string
export declare function nodeVersionProblem(version: string): string | undefined
export declare function testRunnerProblem(root: string): string | undefined
