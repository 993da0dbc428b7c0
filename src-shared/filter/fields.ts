import type { FieldLookup } from './parser';

export type FieldType = 'string' | 'number' | 'boolean' | 'duration' | 'any';
export type FieldValue = string | number | boolean;
/** A field's value on one subject: absent, one value, or several (an envelope's findings). */
export type FieldValues = FieldValue | readonly FieldValue[] | undefined;

/** What the parser checks a comparison against. */
export interface FieldSpec {
  readonly name: string;
  readonly type: FieldType;
  /** For ordered text (severity): the values from lowest to highest; `<` and `>` follow it. */
  readonly order?: readonly string[];
  /** Values offered by completion when they are fixed (dialects, severities, kinds). */
  readonly values?: readonly string[];
  /** `values` is the whole set: any other value is an error where the expression is read. */
  readonly closed?: boolean;
}

/** Where a value many subjects share is kept, and its version (see FieldDef.sharedBy). */
export interface SharedValue {
  readonly key: object;
  readonly version: number;
}

export interface FieldDef<S> extends FieldSpec {
  /** One line for completion and docs/filters.md. */
  readonly description: string;
  get(subject: S): FieldValues;
  /**
   * For a value many subjects share (an envelope's block content): the object all subjects
   * with this value have, and a number that changes whenever the value may have (the block's
   * envelope count). A comparison on the field is then decided once per object and version,
   * not once per subject: matching a block's content on each of its envelopes was quadratic.
   */
  sharedBy?(subject: S): SharedValue | undefined;
}

/**
 * The fields a filter can name, with how to read each from a subject. Dialects and stages add
 * theirs with `define` (or `definePrefix` for a family such as `extras.*`); the parser and the
 * evaluator only ever look fields up here, so adding a field needs no change to either.
 */
export class FieldTable<S> implements FieldLookup {
  private readonly defs = new Map<string, FieldDef<S>>();
  private readonly prefixes: { prefix: string; make: (name: string, rest: string) => FieldDef<S> }[] = [];

  define(def: FieldDef<S>): this {
    if (this.defs.has(def.name)) throw new Error(`Filter field '${def.name}' is defined twice`);
    this.defs.set(def.name, def);
    return this;
  }

  /** Every name `prefix` + anything (`extras.citation_type`) is a field made by `make`. */
  definePrefix(prefix: string, make: (name: string, rest: string) => FieldDef<S>): this {
    this.prefixes.push({ prefix, make });
    return this;
  }

  field(name: string): FieldDef<S> | undefined {
    const def = this.defs.get(name);
    if (def) return def;
    const family = this.prefixes.find((p) => name.startsWith(p.prefix) && name.length > p.prefix.length);
    return family?.make(name, name.slice(family.prefix.length));
  }

  names(): readonly string[] {
    return [...this.defs.keys()];
  }

  all(): readonly FieldDef<S>[] {
    return [...this.defs.values()];
  }

  prefixNames(): readonly string[] {
    return this.prefixes.map((p) => `${p.prefix}…`);
  }
}
