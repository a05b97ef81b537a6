/** The failure codes, declared in lib/spec/failure-codes.ts, below the options, which check a baseline's codes against them. */
export { FAILURE_CODES, isFailureCode, type FailureCode } from '../spec/failure-codes.ts'
