/**
 * Mutations written as a Mojolicious service gets them wrong (measured on Debian 12's
 * libmojolicious-perl 9.31 with DBD::MariaDB): Perl's truth, for which "0" is no value as "" is
 * (`my $name = $json->{name} or return …`), and DBI's NULL column, which Mojo::JSON writes as null.
 * Each breaks two rules at once, the list's shape and another, so that the one the list's shape
 * could hide is proven seen.
 */
import { conformingBehaviour } from '../reference-server.ts'
import { isPlainObject, type Mutation } from '../server-cases.ts'

/** The list as `selectall_arrayref(…, { Slice => {} })` gives it: a NULL description is undef, written null. */
const listWithNulls = (store: readonly { description?: string }[]) => store.map((r) => ({ ...r, description: r.description ?? null }))

export const PERL_MUTATIONS: readonly Mutation[] = [
  {
    name: 'perl-truth-refuses-zero-name',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description:
      'a name "0" is refused with 400, as `my $name = $json->{name} or return …` does (Perl takes "0" for false, as ""), ' +
      'and the list writes a NULL description as null (DBI gives undef): the refusal must show though the list breaks its schema',
    behaviour: {
      validate: (body) => conformingBehaviour.validate(body) ?? (isPlainObject(body) && (body.name === '' || body.name === '0') ? 'name is required' : null),
      listBody: listWithNulls,
    },
  },
  {
    name: 'perl-refused-body-stored',
    breaks: 'create-rejects-missing-name',
    code: 'REFUSED_CREATE_STORED',
    description:
      'a body without name is inserted before it is checked and answered 400 (AutoCommit, no transaction), ' +
      'and the list writes a NULL description as null: the stored refusal must show though the list breaks its schema',
    behaviour: {
      finish: (reply, request, store) => {
        if (reply.status === 400 && request.operation === 'createCategory' && isPlainObject(request.body) && !('name' in request.body) && typeof request.body.description === 'string') {
          store.push({ id: conformingBehaviour.nextId(store), name: '', description: request.body.description })
        }
        return reply
      },
      listBody: listWithNulls,
    },
  },
]
