/**
 * The variants written as one stack's service configured to conform, as measured: one file per
 * stack (Java, PHP, Rails and Mojolicious, Django, Rust, Bun and Deno, platforms' fronts), gathered here for lib/server/variants.ts.
 */
import { BUN_DENO_VARIANTS } from './bun-deno.ts'
import { DJANGO_VARIANTS } from './django.ts'
import { JAVA_VARIANTS } from './jdk.ts'
import { PHP_VARIANTS } from './php.ts'
import { PLATFORM_VARIANTS } from './platforms.ts'
import { RAILS_MOJOLICIOUS_VARIANTS } from './rails-mojolicious.ts'
import { RUST_VARIANTS } from './rust.ts'
import type { Variant } from '../server-cases.ts'

export const STACK_VARIANTS: readonly Variant[] = [...JAVA_VARIANTS, ...PHP_VARIANTS, ...RAILS_MOJOLICIOUS_VARIANTS, ...DJANGO_VARIANTS, ...RUST_VARIANTS, ...BUN_DENO_VARIANTS, ...PLATFORM_VARIANTS]
