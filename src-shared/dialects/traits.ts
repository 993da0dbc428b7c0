import { KIND } from '../envelope/vocabulary';
import type { DialectRegistry } from './registry';
import type { BlockKindTraits } from './types';

/**
 * What the stages after the decoder read of the dialects' declarations (DialectModule), so that
 * none of them names a dialect: a new dialect says what its block kinds are, and the in-text
 * stage and the views follow.
 */

export type InlineTreatment = NonNullable<BlockKindTraits['inline']>;

/** Each block kind some dialect of the registry declares, with its traits; throws when two declare it differently. */
function declaredBlockKinds(registry: DialectRegistry): ReadonlyMap<string, BlockKindTraits> {
  const declared = new Map<string, { traits: BlockKindTraits; by: string }>();
  for (const module of registry.modules) {
    for (const [kind, traits] of Object.entries(module.blockKinds ?? {})) {
      const earlier = declared.get(kind);
      if (earlier && (earlier.traits.inline !== traits.inline || earlier.traits.label !== traits.label))
        throw new Error(`block kind ${kind} is declared differently by dialects ${earlier.by} and ${module.id}`);
      declared.set(kind, { traits, by: module.id });
    }
  }
  return new Map([...declared].map(([kind, { traits }]) => [kind, traits]));
}

/**
 * What the in-text stage does with each block kind: the model's `text` is parsed in every
 * dialect (it is the envelope vocabulary's), and each dialect's own kinds as it declares.
 */
export function inlineTreatments(registry: DialectRegistry): ReadonlyMap<string, InlineTreatment> {
  const treatments = new Map<string, InlineTreatment>([[KIND.text, 'parse']]);
  for (const [kind, traits] of declaredBlockKinds(registry)) if (traits.inline) treatments.set(kind, traits.inline);
  return treatments;
}

/** The labels the dialects of the registry give their own block kinds. */
export function blockKindLabels(registry: DialectRegistry): ReadonlyMap<string, string> {
  const labels = new Map<string, string>();
  for (const [kind, traits] of declaredBlockKinds(registry)) if (traits.label) labels.set(kind, traits.label);
  return labels;
}
