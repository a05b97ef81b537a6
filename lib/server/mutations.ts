/**
 * Misbehaving servers: each mutation makes the reference server break one rule of
 * spec/rules.yaml the way real services go wrong, and names the failure code the suite must
 * report for it (lib/spec/failure-codes.ts). The kill matrix (test/mutants/) runs the suite
 * against each one and demands exit 1 with that rule failed for that reason; every must-rule has
 * at least two mutations. One file per area of the interface, in lib/server/mutations/.
 */
import { AUTHENTICATION_MUTATIONS } from './mutations/authentication.ts'
import { LEGACY_ROUTE_MUTATION, NORMALISING_GUARD_MUTATIONS, ROUTING_MUTATIONS, SLASH_REDIRECT_MUTATIONS, SUBTREE_REDIRECT_MUTATION } from './mutations/routing.ts'
import { CREATE_MUTATIONS } from './mutations/create.ts'
import { ERROR_MUTATIONS } from './mutations/errors.ts'
import { INPUT_MUTATIONS } from './mutations/inputs.ts'
import { CONTENT_REFUSAL_MUTATIONS } from './mutations/content-refusals.ts'
import { SANITISER_MUTATIONS } from './mutations/sanitisers.ts'
import { SQL_COLUMN_MUTATIONS } from './mutations/sql-columns.ts'
import { LIST_MUTATIONS } from './mutations/list.ts'
import { POISON_MUTATIONS } from './mutations/poison.ts'
import { VALIDATION_MUTATIONS } from './mutations/validation.ts'
import { TRANSPORT_MUTATIONS } from './mutations/transport.ts'
import { VERSIONING_MUTATIONS } from './mutations/versioning.ts'
import { INTERMITTENT_MUTATIONS } from './mutations/intermittent.ts'
import { JACKSON_MUTATIONS } from './mutations/jackson.ts'
import { RAILS_MUTATIONS } from './mutations/rails.ts'
import { PERL_MUTATIONS } from './mutations/perl.ts'
import { PARTIAL_MUTATIONS } from './mutations/partial.ts'
import { OTHER_SCHEME_MUTATIONS } from './mutations/other-schemes.ts'
import { TEXT_FORM_MUTATIONS } from './mutations/text-forms.ts'
import { JDK_MUTATIONS } from './mutations/jdk.ts'
import { RUST_MUTATIONS } from './mutations/rust.ts'
import { JETTY_MUTATIONS } from './mutations/jetty.ts'
import { ECHO_MUTATIONS } from './mutations/echo.ts'
import { BEARER_PATTERN_MUTATIONS } from './mutations/bearer-patterns.ts'
import { ORM_SAVE_MUTATIONS } from './mutations/orm-saves.ts'
import { BODY_LAYOUT_MUTATIONS } from './mutations/body-layout.ts'
import { REQUEST_HEADER_MUTATIONS } from './mutations/request-headers.ts'
import { CACHE_MUTATIONS } from './mutations/caches.ts'
import { LIST_VIEW_MUTATIONS } from './mutations/list-views.ts'
import { CONNECTION_STATE_MUTATIONS } from './mutations/connection-state.ts'
import { ID_AS_DOUBLE_MUTATIONS } from './mutations/ids-as-doubles.ts'
import { FRONT_MUTATIONS } from './mutations/fronts.ts'
import { KEY_LOOKUP_MUTATIONS } from './mutations/key-lookups.ts'
import { TEXT_AS_PATTERN_MUTATIONS } from './mutations/text-as-pattern.ts'
import { READ_AS_OTHER_MUTATIONS } from './mutations/read-as-other.ts'
import { BEHIND_SHORT_COLUMN_MUTATIONS } from './mutations/behind-short-columns.ts'
import { BEHIND_REFUSED_MEMBER_MUTATIONS } from './mutations/behind-refused-members.ts'
import { PUMA_MUTATIONS } from './mutations/puma.ts'
import { RESEND_MUTATIONS } from './mutations/resends.ts'
import { FORM_BODY_MUTATIONS } from './mutations/form-bodies.ts'
import type { Mutation } from './server-cases.ts'

export type { Mutation } from './server-cases.ts'

export const MUTATIONS: readonly Mutation[] = [
  ...LIST_MUTATIONS,
  ...CREATE_MUTATIONS,
  ...ORM_SAVE_MUTATIONS,
  ...VALIDATION_MUTATIONS,
  ...JACKSON_MUTATIONS,
  ...RAILS_MUTATIONS,
  ...PERL_MUTATIONS,
  ...RUST_MUTATIONS,
  ...ECHO_MUTATIONS,
  ...BEARER_PATTERN_MUTATIONS,
  ...AUTHENTICATION_MUTATIONS,
  ...OTHER_SCHEME_MUTATIONS,
  ...KEY_LOOKUP_MUTATIONS,
  ...ROUTING_MUTATIONS,
  ...NORMALISING_GUARD_MUTATIONS,
  LEGACY_ROUTE_MUTATION,
  SUBTREE_REDIRECT_MUTATION,
  ...SLASH_REDIRECT_MUTATIONS,
  ...ERROR_MUTATIONS,
  ...VERSIONING_MUTATIONS,
  ...INPUT_MUTATIONS,
  ...CONTENT_REFUSAL_MUTATIONS,
  ...FORM_BODY_MUTATIONS,
  ...JDK_MUTATIONS,
  ...TEXT_AS_PATTERN_MUTATIONS,
  ...JETTY_MUTATIONS,
  ...TEXT_FORM_MUTATIONS,
  ...BODY_LAYOUT_MUTATIONS,
  ...REQUEST_HEADER_MUTATIONS,
  ...CACHE_MUTATIONS,
  ...SQL_COLUMN_MUTATIONS,
  ...POISON_MUTATIONS,
  ...SANITISER_MUTATIONS,
  ...TRANSPORT_MUTATIONS,
  ...INTERMITTENT_MUTATIONS,
  ...PARTIAL_MUTATIONS,
  ...LIST_VIEW_MUTATIONS,
  ...CONNECTION_STATE_MUTATIONS,
  ...ID_AS_DOUBLE_MUTATIONS,
  ...FRONT_MUTATIONS,
  ...READ_AS_OTHER_MUTATIONS,
  ...BEHIND_SHORT_COLUMN_MUTATIONS,
  ...BEHIND_REFUSED_MEMBER_MUTATIONS,
  ...PUMA_MUTATIONS,
  ...RESEND_MUTATIONS,
]
