import { DIALECT_IDS, DIALECT_REGISTRY, type DialectId } from '../../../../src-shared/dialects/registry';
import { CONTROL_KINDS, NO_EXTRAS, type ControlKind, type Envelope } from '../../../../src-shared/envelope/types';
import type { UnifiedEvent } from '../../../../src-shared/envelope/unified';
import type { Frame } from '../../../../src-shared/sse/types';
import { Column, Interned, NearColumn, RunColumn, TimeColumn, UintColumn } from './columns';
import type { SpoolFile } from './spool-file';
import { jsonText } from '../../../../src-shared/json/tree';
import { parseJson } from '../../../../src-shared/json/values';

/**
 * The session's envelopes as columns of small integers (each as wide as its largest value
 * needs: a few bytes per envelope). What an envelope carries beyond them is written to the
 * session's spool file, one record per envelope, and read back by offset when asked for: its
 * delta (UTF-8), then its extras and its unified event as JSON text when it has them. The
 * byte span and receive time are the frame's (looked up, not copied), and an Envelope object
 * is rebuilt when one is asked for.
 */

const CONTROLS: readonly (ControlKind | undefined)[] = [undefined, ...CONTROL_KINDS];
const DIALECTS: readonly DialectId[] = DIALECT_IDS;

/** The flags byte: bit 0 final, bits 1-3 the control kind, bits 4-7 the dialect's registry index. */
const CONTROL_SHIFT = 1;
const CONTROL_MASK = 0b111;
const DIALECT_SHIFT = 4;
const DIALECT_MASK = 0b1111;
if (CONTROLS.length > CONTROL_MASK + 1)
  throw new Error(`${CONTROLS.length} control kinds do not fit the envelope table's ${CONTROL_MASK + 1}`);
if (DIALECTS.length > DIALECT_MASK + 1)
  throw new Error(
    `${DIALECTS.length} dialects do not fit the envelope table's ${DIALECT_MASK + 1}: widen the flags column`,
  );
function dialectIndex(dialect: DialectId): number {
  const index = DIALECTS.indexOf(dialect);
  if (index < 0) throw new Error(`envelope of unregistered dialect ${dialect}`);
  return index;
}

/** Envelopes whose delta length `recentDeltaChars` still knows: the last ones added. */
const RECENT = 256;

/** A leg's frames: where each is (its byte span) and when it arrived. */
export type FrameLookup = (
  leg: number,
) => Pick<FrameTable, 'count' | 'byteStart' | 'byteEnd' | 'receivedAt'> | undefined;

export class EnvelopeTable {
  constructor(
    private readonly frameOf: FrameLookup,
    private readonly text: SpoolFile,
  ) {}

  private size = 0;
  private readonly legs = new RunColumn();
  private readonly frames = new NearColumn();
  private readonly agents = new UintColumn();
  private readonly types = new UintColumn();
  /** See CONTROL_SHIFT and DIALECT_SHIFT. */
  private readonly flags = new Column(Uint8Array);
  /** Where each envelope's record ends in the spool file (it starts where the previous one ends). */
  private readonly recordEnds = new NearColumn();
  /** Bytes of the record's extras JSON (0: none), after its delta. */
  private readonly extrasBytes = new UintColumn();
  /** Bytes of the record's unified event JSON (0: none; only provider dialects have one), last. */
  private readonly unifiedBytes = new UintColumn();
  /** The block each envelope went to (unset: none yet, or none at all). */
  private readonly blocks = new NearColumn();
  private readonly strings = new Interned();
  /** The delta lengths (UTF-16) of the last RECENT envelopes, by seq modulo RECENT. */
  private readonly recentSeqs = new Int32Array(RECENT).fill(-1);
  private readonly recentChars = new Uint32Array(RECENT);

  get count(): number {
    return this.size;
  }

  add(e: Envelope): void {
    const i = e.seq;
    if (i !== this.size)
      throw new Error(`Envelope ${i} arrived after envelope ${this.size - 1}: envelopes are stored in order`);
    this.legs.append(e.leg);
    this.frames.set(i, e.frame);
    this.agents.set(i, this.strings.id(e.agent));
    this.types.set(i, this.strings.id(e.type));
    this.flags.set(
      i,
      (e.final ? 1 : 0) |
        (Math.max(0, CONTROLS.indexOf(e.control)) << CONTROL_SHIFT) |
        (dialectIndex(e.dialect) << DIALECT_SHIFT),
    );
    const deltaBytes = this.text.appendText(e.delta);
    const extrasBytes = hasKeys(e.extras) ? this.text.appendText(jsonText(e.extras)) : 0;
    const unifiedBytes = e.unified ? this.text.appendText(jsonText(e.unified)) : 0;
    this.extrasBytes.set(i, extrasBytes);
    this.unifiedBytes.set(i, unifiedBytes);
    this.recordEnds.set(i, this.recordStart(i) + deltaBytes + extrasBytes + unifiedBytes);
    this.recentSeqs[i % RECENT] = i;
    this.recentChars[i % RECENT] = e.delta.length;
    this.size = i + 1;
  }

  /**
   * The delta's length in UTF-16 units while the envelope is among the last ones added, else
   * -1. The reconstructor reports a block's change right after the envelope that made it, so
   * this is known for nearly every envelope a block takes, without reading it back.
   */
  recentDeltaChars(seq: number): number {
    const slot = seq % RECENT;
    return seq >= 0 && this.recentSeqs[slot] === seq ? (this.recentChars[slot] as number) : -1;
  }

  leg(seq: number): number {
    return this.legs.get(seq);
  }

  frame(seq: number): number {
    return this.frames.get(seq);
  }

  /** The envelope's block, or -1 (none). */
  block(seq: number): number {
    return this.blocks.get(seq);
  }

  setBlock(seq: number, block: number): void {
    this.blocks.set(seq, block);
  }

  delta(seq: number): string {
    if (seq < 0 || seq >= this.size) return '';
    return this.text.readText(this.recordStart(seq), this.recordStart(seq) + this.deltaBytes(seq));
  }

  /** The delta's length in UTF-8 bytes (without reading it). */
  deltaBytes(seq: number): number {
    if (seq < 0 || seq >= this.size) return 0;
    return this.recordEnds.get(seq) - this.recordStart(seq) - this.extrasBytes.get(seq) - this.unifiedBytes.get(seq);
  }

  /** Bytes the index takes in memory. */
  get indexBytes(): number {
    return this.columns().reduce((sum, column) => sum + column.byteLength, 0);
  }

  private columns() {
    return [
      this.legs,
      this.frames,
      this.agents,
      this.types,
      this.flags,
      this.recordEnds,
      this.extrasBytes,
      this.unifiedBytes,
      this.blocks,
    ];
  }

  private recordStart(seq: number): number {
    return seq === 0 ? 0 : this.recordEnds.get(seq - 1);
  }

  /** The JSON value written `bytes` before the end of the envelope's record, `skip` bytes further back. */
  private readJson(seq: number, bytes: number, skip: number): unknown {
    const end = this.recordEnds.get(seq) - skip;
    const parsed = parseJson(this.text.readText(end - bytes, end));
    if (!parsed.ok) throw new Error(`The spool file's record of envelope ${seq} does not parse: ${parsed.error}`);
    return parsed.value;
  }

  private unifiedOf(seq: number): UnifiedEvent | undefined {
    const bytes = this.unifiedBytes.get(seq);
    return bytes === 0 ? undefined : (this.readJson(seq, bytes, 0) as UnifiedEvent);
  }

  agent(seq: number): string {
    return this.strings.value(this.agents.get(seq));
  }

  type(seq: number): string {
    return this.strings.value(this.types.get(seq));
  }

  control(seq: number): ControlKind | undefined {
    return CONTROLS[(this.flags.get(seq) >> CONTROL_SHIFT) & CONTROL_MASK];
  }

  dialect(seq: number): DialectId {
    return (
      DIALECTS[(this.flags.get(seq) >> DIALECT_SHIFT) & DIALECT_MASK] ?? (DIALECT_REGISTRY.fallback.id as DialectId)
    );
  }

  final(seq: number): boolean {
    return (this.flags.get(seq) & 1) === 1;
  }

  /** When the frame carrying the envelope arrived. */
  receivedAt(seq: number): number {
    const frame = this.frames.get(seq);
    const frames = this.frameOf(this.legs.get(seq));
    return frames && frame < frames.count ? frames.receivedAt(frame) : 0;
  }

  extrasOf(seq: number): Record<string, unknown> {
    if (seq < 0 || seq >= this.size) return NO_EXTRAS;
    const bytes = this.extrasBytes.get(seq);
    return bytes === 0 ? NO_EXTRAS : (this.readJson(seq, bytes, this.unifiedBytes.get(seq)) as Record<string, unknown>);
  }

  get(seq: number): Envelope | undefined {
    if (seq < 0 || seq >= this.size || !Number.isInteger(seq)) return undefined;
    const flags = this.flags.get(seq);
    const leg = this.legs.get(seq);
    const frame = this.frames.get(seq);
    const frames = this.frameOf(leg);
    const known = frames !== undefined && frame < frames.count;
    const envelope: Envelope = {
      seq,
      frame,
      agent: this.agent(seq),
      type: this.type(seq),
      final: (flags & 1) === 1,
      delta: this.delta(seq),
      extras: this.extrasOf(seq),
      leg,
      dialect: this.dialect(seq),
      byteStart: known ? frames.byteStart(frame) : 0,
      byteEnd: known ? frames.byteEnd(frame) : 0,
      receivedAt: known ? frames.receivedAt(frame) : 0,
    };
    const control = this.control(seq);
    if (control) envelope.control = control;
    const unified = this.unifiedOf(seq);
    if (unified) envelope.unified = unified;
    return envelope;
  }

  /** No more envelopes will be added: release spare capacity. */
  trim(): void {
    for (const column of this.columns()) column.trim(this.size);
  }
}

function hasKeys(record: Record<string, unknown>): boolean {
  for (const _key in record) return true;
  return false;
}

/**
 * A frame without what framing its bytes again gives back (its event type and data lines):
 * the frame's data is rebuilt from the raw bytes when asked for, and they come with it.
 */
export type CompactFrame = Omit<Frame, 'data' | 'event' | 'dataLines' | 'maxDataLineBytes'>;

/**
 * One leg's frames as columns, with the first envelope each frame produced: where each frame
 * is (bytes and chunks), when it arrived, the last event id. A live firehose has a frame per
 * envelope, so this costs about as much as the envelope table itself: offsets are kept as
 * lengths and distances (NearColumn), and what framing the bytes again gives back is not kept.
 */
export class FrameTable {
  private size = 0;
  private readonly starts = new NearColumn();
  /** byteEnd - byteStart. */
  private readonly lengths = new UintColumn();
  private readonly times = new TimeColumn();
  private readonly chunkFirst = new NearColumn();
  /** chunkLast - chunkFirst. */
  private readonly chunkSpans = new UintColumn();
  private readonly ids = new UintColumn();
  /** The frame's first envelope (unset: none). */
  private readonly firstEnvelopes = new NearColumn();
  private readonly strings = new Interned();

  get count(): number {
    return this.size;
  }

  add(frame: Frame): void {
    const i = frame.seq;
    this.starts.set(i, frame.byteStart);
    this.lengths.set(i, frame.byteEnd - frame.byteStart);
    this.times.set(i, frame.receivedAt);
    this.chunkFirst.set(i, frame.chunkFirst);
    this.chunkSpans.set(i, frame.chunkLast - frame.chunkFirst);
    this.ids.set(i, this.strings.id(frame.id));
    this.size = Math.max(this.size, i + 1);
  }

  /** The first envelope of the frame, or -1 (none yet, or the frame produced none). */
  firstEnvelope(seq: number): number {
    return seq < this.size ? this.firstEnvelopes.get(seq) : -1;
  }

  noteEnvelope(frame: number, envelope: number): void {
    if (frame < this.size && this.firstEnvelopes.get(frame) < 0) this.firstEnvelopes.set(frame, envelope);
  }

  byteStart(seq: number): number {
    return this.starts.get(seq);
  }

  byteEnd(seq: number): number {
    return this.starts.get(seq) + this.lengths.get(seq);
  }

  receivedAt(seq: number): number {
    return this.times.get(seq);
  }

  get(seq: number): CompactFrame | undefined {
    if (seq < 0 || seq >= this.size || !Number.isInteger(seq)) return undefined;
    const chunkFirst = this.chunkFirst.get(seq);
    return {
      seq,
      byteStart: this.byteStart(seq),
      byteEnd: this.byteEnd(seq),
      chunkFirst,
      chunkLast: chunkFirst + this.chunkSpans.get(seq),
      receivedAt: this.times.get(seq),
      id: this.strings.value(this.ids.get(seq)),
    };
  }

  /** The leg ended: release spare capacity. */
  trim(): void {
    for (const column of this.columns()) column.trim(this.size);
  }

  /** Bytes the index takes in memory. */
  get indexBytes(): number {
    return this.columns().reduce((sum, column) => sum + column.byteLength, 0);
  }

  private columns() {
    return [this.starts, this.lengths, this.times, this.chunkFirst, this.chunkSpans, this.ids, this.firstEnvelopes];
  }
}
