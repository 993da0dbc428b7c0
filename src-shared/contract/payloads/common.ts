import { SEVERITIES } from '../../diagnostics/severity';
import { DIALECT_IDS } from '../../dialects/registry';
import { CONTROL_KINDS } from '../../envelope/types';
import { INLINE_MODES } from '../../inline/types';
import type { Infer } from '../schema';
import * as s from '../schema';

/** Pieces every domain shares: ids, severities, formats, header tables, inline options. */

export const SessionId = s.string({ nonEmpty: true, max: 64, pattern: /^[A-Za-z0-9_-]+$/ });
export const Severity = s.literal(...SEVERITIES);
export const FormatChoice = s.literal('auto', ...DIALECT_IDS);
export type FormatChoice = Infer<typeof FormatChoice>;
export const DialectId = s.literal(...DIALECT_IDS);
export const ControlKind = s.literal(...CONTROL_KINDS);

/** An ordered header table: pairs keep order and duplicates (as typed in the connect form). */
export const HeaderTable = s.array(s.tuple(s.string({ max: 1024 }), s.string({ max: 64 * 1024 })), { max: 500 });
export type HeaderTable = Infer<typeof HeaderTable>;

export const Path = s.string({ nonEmpty: true, max: 4096 });
export const Count = s.index;

/** How the inline stage reads the model's text (docs/inline.md): a mode and the known tool tags. */
export const InlineOptions = s.object({
  mode: s.literal(...INLINE_MODES),
  tools: s.array(
    s.object({
      name: s.string({ nonEmpty: true, max: 100, pattern: /^[A-Za-z_][A-Za-z0-9_.-]*$/ }),
      required: s.array(s.string({ nonEmpty: true, max: 100, pattern: /^[A-Za-z_][A-Za-z0-9_.-]*$/ }), { max: 50 }),
    }),
    { max: 100 },
  ),
});
export type InlineOptionsPayload = Infer<typeof InlineOptions>;

export const SeverityCounts = s.object({ error: Count(), warning: Count(), info: Count() } satisfies Record<
  (typeof SEVERITIES)[number],
  unknown
>);
