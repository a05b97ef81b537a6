/** Mutations of §9.2: the base address ends in /v1. */
import type { Mutation } from '../server-cases.ts'

export const VERSIONING_MUTATIONS: readonly Mutation[] = [
  // §9.2: the base address ends in /v1
  {
    name: 'served-under-v2',
    breaks: 'base-url-ends-v1',
    code: 'BASE_PATH_NOT_V1',
    description: 'the service is served under /v2, checked with --allow-any-base-path',
    behaviour: {},
    basePath: '/v2',
    args: ['--allow-any-base-path'],
  },
  {
    name: 'served-under-api',
    breaks: 'base-url-ends-v1',
    code: 'BASE_PATH_NOT_V1',
    description: 'the service is served under /api with no version, checked with --allow-any-base-path',
    behaviour: {},
    basePath: '/api',
    args: ['--allow-any-base-path'],
  },
  {
    name: 'served-at-root',
    breaks: 'base-url-ends-v1',
    code: 'BASE_PATH_NOT_V1',
    description: 'the service is served at the root of the host, checked with --allow-any-base-path',
    behaviour: {},
    basePath: '',
    args: ['--allow-any-base-path'],
  },
]
