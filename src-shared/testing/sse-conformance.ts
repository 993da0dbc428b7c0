/**
 * The WHATWG "interpreting an event stream" rules as test cases, one group per rule of the
 * HTML Standard (§9.2.5 and §9.2.6), each with what a conforming EventSource dispatches and
 * what the inspector reports about it. The framer's conformance test runs every case whole,
 * byte by byte and at seeded random splits; the reference test feeds the same bytes to
 * eventsource-parser, undici's EventSource and the `eventsource` package and checks that
 * they differ exactly where docs/reliability.md says.
 */
import { concatBytes } from '../bytes/held-bytes';
import type { RuleId } from '../diagnostics/rules';
import { encodeUtf8 } from '../text/utf8';

/** One dispatched event as a page sees it: `event` '' is the default type `message`. */
export interface SseEvent {
  event: string;
  data: string;
  id: string;
}

export interface ConformanceCase {
  /** The rule of the standard the case pins (a group name, stable: docs/reliability.md cites it). */
  rule: string;
  name: string;
  bytes: Uint8Array;
  events: SseEvent[];
  /** The last event ID when the stream ends (what a reconnection would send). */
  lastEventId: string;
  /** Every valid `retry` value, in order. */
  retries: number[];
  /** The inspector's findings, in order (rule ids only). */
  findings: RuleId[];
  /** Splittings that matter for this case, beyond whole / byte by byte / random. */
  extraChunkings?: Uint8Array[][];
}

type Expected = Partial<Pick<ConformanceCase, 'events' | 'lastEventId' | 'retries' | 'findings' | 'extraChunkings'>>;

export const EOLS = [
  { name: 'LF', eol: '\n' },
  { name: 'CR', eol: '\r' },
  { name: 'CRLF', eol: '\r\n' },
] as const;

/** Text and byte arrays, concatenated (byte arrays carry invalid UTF-8). */
export function bytesOf(...parts: (string | readonly number[])[]): Uint8Array {
  return concatBytes(parts.map((p) => (typeof p === 'string' ? encodeUtf8(p) : Uint8Array.from(p))));
}

function message(data: string, id = '', event = ''): SseEvent {
  return { event, data, id };
}

function make(rule: string, name: string, input: string | Uint8Array, expected: Expected): ConformanceCase {
  return {
    rule,
    name,
    bytes: typeof input === 'string' ? encodeUtf8(input) : input,
    events: expected.events ?? [],
    lastEventId: expected.lastEventId ?? '',
    retries: expected.retries ?? [],
    findings: expected.findings ?? [],
    ...(expected.extraChunkings ? { extraChunkings: expected.extraChunkings } : {}),
  };
}

/** The same case written with LF, CR and CRLF: `⏎` in `template` is the line ending. */
function eachEol(rule: string, name: string, template: string, expected: Expected): ConformanceCase[] {
  return EOLS.map(({ name: eolName, eol }) =>
    make(rule, `${name} (${eolName})`, template.replaceAll('⏎', eol), expected),
  );
}

/** Cut at every byte position into two chunks. */
function everyTwoWaySplit(bytes: Uint8Array): Uint8Array[][] {
  return Array.from({ length: bytes.length - 1 }, (_, i) => [bytes.subarray(0, i + 1), bytes.subarray(i + 1)]);
}

function chunksOf(...parts: string[]): Uint8Array[] {
  return parts.map(encodeUtf8);
}

const LINE_ENDINGS = 'line endings';
const BOM = 'byte order mark';
const COMMENTS = 'comments';
const FIELDS = 'field parsing';
const DATA = 'data buffer';
const EVENT_TYPE = 'event type';
const LAST_EVENT_ID = 'last event ID';
const RETRY = 'retry';
const END = 'dispatch at the end of the stream';
const SIZE = 'long lines and many lines';
const UTF8 = 'UTF-8 decoding';

const LONG_LINE = 'x'.repeat(256 * 1024);
const MANY_LINES = 10_000;
const MULTI_BYTE = 'aé日😀z';

export const CONFORMANCE_CASES: readonly ConformanceCase[] = [
  // "Lines must be separated by either a U+000D CR U+000A LF pair, a single U+000A LF, or a
  // single U+000D CR."
  ...eachEol(LINE_ENDINGS, 'two events', 'data: one⏎⏎data: two⏎⏎', { events: [message('one'), message('two')] }),
  make(LINE_ENDINGS, 'mixed endings in one stream', 'data: a\rdata: b\r\ndata: c\n\r\ndata: d\r\r', {
    events: [message('a\nb\nc'), message('d')],
    findings: ['sse.multi-line-data'],
  }),
  make(LINE_ENDINGS, 'LF then CR is two line endings (a blank line)', 'data: a\n\rdata: b\n\n', {
    events: [message('a'), message('b')],
  }),
  make(LINE_ENDINGS, 'CRLF split between chunks is one line ending', 'data: a\r\ndata: b\r\n\r\n', {
    events: [message('a\nb')],
    findings: ['sse.multi-line-data'],
    extraChunkings: [
      chunksOf('data: a\r', '\ndata: b\r', '\n\r', '\n'),
      chunksOf('data: a\r\ndata: b\r\n\r', '', '', '\n'),
    ],
  }),
  make(LINE_ENDINGS, 'CR at the end of a chunk, then another line', 'data: a\rdata: b\r\r', {
    events: [message('a\nb')],
    findings: ['sse.multi-line-data'],
    extraChunkings: [chunksOf('data: a\r', 'data: b\r', '\r')],
  }),
  make(LINE_ENDINGS, 'CR as the last byte of the stream ends the line', 'data: a\r\r', {
    events: [message('a')],
    extraChunkings: [chunksOf('data: a\r', '\r')],
  }),

  // "One leading U+FEFF BYTE ORDER MARK character must be ignored if any are present."
  ...eachEol(BOM, 'one leading BOM is stripped', '\uFEFFdata: a⏎⏎', { events: [message('a')] }),
  make(BOM, 'a BOM alone is an empty stream', '\uFEFF', {}),
  make(BOM, 'a second BOM is part of the first field name', '\uFEFF\uFEFFdata: a\n\n', {
    findings: ['sse.ignored-line'],
  }),
  make(BOM, 'a BOM after the start of the stream is data', 'data: \uFEFFa\n\n', { events: [message('\uFEFFa')] }),
  make(BOM, 'a BOM at the start of a later line is part of its field name', 'data: a\n\n\uFEFFdata: b\n\n', {
    events: [message('a')],
    findings: ['sse.early-dispatch', 'sse.ignored-line'],
  }),

  // "If the line starts with a U+003A COLON character: ignore the line."
  ...eachEol(COMMENTS, 'comments between and inside events', ': hello⏎data: a⏎:⏎data: b⏎: bye⏎⏎', {
    events: [message('a\nb')],
    findings: ['sse.multi-line-data'],
  }),
  make(COMMENTS, 'a comment alone dispatches nothing', ': keep-alive\n\n: keep-alive\n\n', {}),
  make(COMMENTS, 'a comment holding field-like text is still a comment', ':data: x\n\n', {}),

  // "If the line contains a U+003A COLON character: collect the characters before it as the
  // field name, the characters after it as the value, removing one leading U+0020 SPACE if
  // present. Otherwise the whole line is the field name and the value is the empty string."
  ...eachEol(FIELDS, 'exactly one leading space is stripped', 'data: one⏎⏎data:two⏎⏎data:  three⏎⏎', {
    events: [message('one'), message('two'), message(' three')],
  }),
  make(FIELDS, 'a tab is not a space', 'data:\tx\n\n', { events: [message('\tx')] }),
  make(FIELDS, 'colons after the first belong to the value', 'event: x:y\ndata: a: b:c\n\n', {
    events: [message('a: b:c', '', 'x:y')],
  }),
  make(FIELDS, 'a field without a colon has an empty value', 'data\ndata\n\n', {
    events: [message('\n')],
    findings: ['sse.multi-line-data'],
  }),
  make(FIELDS, 'field names are case-sensitive', 'Data: x\n\n', { findings: ['sse.unknown-field'] }),
  make(FIELDS, 'a space before the colon is part of the name', 'data : x\n\n', { findings: ['sse.ignored-line'] }),
  make(FIELDS, 'an unknown field is ignored', 'x-trace: 1\ndata: a\n\n', {
    events: [message('a')],
    findings: ['sse.unknown-field'],
  }),
  make(FIELDS, 'a line that is no field is ignored', 'data: a\nsecond half\n\n', {
    events: [message('a')],
    findings: ['sse.ignored-line'],
  }),

  // "data: append the value to the data buffer, then a single U+000A LF"; at dispatch "if
  // the data buffer's last character is a U+000A LF, remove it".
  ...eachEol(DATA, 'data lines are joined with LF', 'data: a⏎data: b⏎⏎', {
    events: [message('a\nb')],
    findings: ['sse.multi-line-data'],
  }),
  make(DATA, 'only the last LF is removed', 'data: a\ndata:\n\n', {
    events: [message('a\n')],
    findings: ['sse.multi-line-data'],
  }),
  make(DATA, 'an empty data line dispatches an empty message', 'data:\n\n', { events: [message('')] }),
  make(DATA, 'a blank line with nothing in the data buffer dispatches nothing', '\n\n\ndata: a\n\n\n\n', {
    events: [message('a')],
  }),
  make(DATA, 'LF and CR inside the value cannot exist: they end the line', 'data: a\rb\n\n', {
    events: [message('a')],
    findings: ['sse.ignored-line'],
  }),

  // "event: set the event type buffer to the field value"; after dispatch, or at a blank line
  // with an empty data buffer, "set the event type buffer to the empty string".
  ...eachEol(EVENT_TYPE, 'the type is reset after every dispatch', 'event: first⏎data: 1⏎⏎data: 2⏎⏎', {
    events: [message('1', '', 'first'), message('2')],
  }),
  make(EVENT_TYPE, 'a blank line without data resets the type', 'event: lonely\n\ndata: x\n\n', {
    events: [message('x')],
    findings: ['sse.event-without-data'],
  }),
  make(EVENT_TYPE, 'the last event field wins', 'event: a\nevent: b\ndata: x\n\n', { events: [message('x', '', 'b')] }),
  make(EVENT_TYPE, 'an empty event field means message', 'event\ndata: x\n\n', { events: [message('x')] }),
  make(EVENT_TYPE, 'a non-ASCII type', 'event: 事件\ndata: x\n\n', { events: [message('x', '', '事件')] }),

  // "id: if the field value does not contain U+0000 NULL, set the last event ID buffer to the
  // field value. Otherwise, ignore the field." The last event ID is set at every blank line.
  ...eachEol(LAST_EVENT_ID, 'the last event ID persists across events', 'id: 7⏎data: a⏎⏎data: b⏎⏎', {
    events: [message('a', '7'), message('b', '7')],
    lastEventId: '7',
  }),
  make(LAST_EVENT_ID, 'an empty id resets it', 'id: 7\ndata: a\n\nid\ndata: b\n\n', {
    events: [message('a', '7'), message('b')],
  }),
  make(LAST_EVENT_ID, 'an id alone after the last event sets it, and is reported', 'data: a\n\nid: 9\n\n', {
    events: [message('a')],
    lastEventId: '9',
    findings: ['sse.fields-without-event'],
  }),
  make(LAST_EVENT_ID, 'an id in a block without data still sets it', 'id: 9\n\ndata: a\n\n', {
    events: [message('a', '9')],
    lastEventId: '9',
  }),
  make(LAST_EVENT_ID, 'an id containing NUL is ignored', 'id: 1\ndata: a\n\nid: 2\0x\ndata: b\n\n', {
    events: [message('a', '1'), message('b', '1')],
    lastEventId: '1',
    findings: ['sse.id-with-nul'],
  }),
  make(LAST_EVENT_ID, 'a non-ASCII id is kept as decoded', 'id: 日本-😀\ndata: a\n\n', {
    events: [message('a', '日本-😀')],
    lastEventId: '日本-😀',
  }),
  make(LAST_EVENT_ID, 'an id with spaces keeps all but the first', 'id:  a b \ndata: x\n\n', {
    events: [message('x', ' a b ')],
    lastEventId: ' a b ',
  }),
  make(LAST_EVENT_ID, 'an id in an event never dispatched is not applied', 'id: 1\ndata: a\n\nid: 2\ndata: b\n', {
    events: [message('a', '1')],
    lastEventId: '1',
    findings: ['sse.unterminated-event'],
  }),

  // "retry: if the field value consists of only ASCII digits, interpret it as an integer in
  // base ten and set the reconnection time to it. Otherwise, ignore the field."
  make(RETRY, 'all-digit values are applied in order', 'retry: 1500\nretry: 007\nretry: 0\ndata: x\n\n', {
    events: [message('x')],
    retries: [1500, 7, 0],
  }),
  ...['1.5', '-1', ' 10', '10ms', '', '１０'].map((value) =>
    make(RETRY, `${JSON.stringify(value)} is ignored`, `retry:${value === '' ? '' : ` ${value}`}\ndata: x\n\n`, {
      events: [message('x')],
      findings: ['sse.invalid-retry'],
    }),
  ),
  make(RETRY, 'retry alone dispatches nothing', 'retry: 10\n\n', {
    retries: [10],
    findings: ['sse.fields-without-event'],
  }),

  // "Once the end of the file is reached, any pending data must be discarded. (If the file
  // ends in the middle of an event, before the final empty line, the incomplete event is not
  // dispatched.)"
  ...eachEol(END, 'an event without its blank line is discarded', 'data: a⏎⏎data: b⏎', {
    events: [message('a')],
    findings: ['sse.unterminated-event'],
  }),
  make(END, 'an unfinished last line is never interpreted', 'data: a\n\nid: 5', {
    events: [message('a')],
    findings: ['sse.unterminated-event'],
  }),
  make(END, 'a last [DONE] without a line ending is lost', 'data: a\n\ndata: [DONE]', {
    events: [message('a')],
    findings: ['sse.unterminated-event'],
  }),
  make(END, 'trailing blank lines and a trailing comment are fine', 'data: a\n\n\n\n: bye', { events: [message('a')] }),
  make(END, 'an empty stream', '', {}),

  // No limit in the standard: a conforming reader takes any line length and any line count.
  make(SIZE, 'a 256 KiB data line', `data: ${LONG_LINE}\n\n`, {
    events: [message(LONG_LINE)],
    findings: ['sse.oversize-line'],
  }),
  make(SIZE, `${MANY_LINES} data lines in one event`, `${'data: x\n'.repeat(MANY_LINES)}\n`, {
    events: [message(Array.from({ length: MANY_LINES }, () => 'x').join('\n'))],
    findings: ['sse.multi-line-data'],
  }),
  make(SIZE, `${MANY_LINES} events`, 'data: x\n\n'.repeat(MANY_LINES), {
    events: Array.from({ length: MANY_LINES }, () => message('x')),
  }),

  // "Event streams are always decoded as UTF-8": the UTF-8 decode algorithm, so a sequence
  // cut between chunks decodes whole, and an invalid one becomes U+FFFD.
  make(
    UTF8,
    'multi-byte characters cut at every byte',
    `event: ${MULTI_BYTE}\nid: ${MULTI_BYTE}\ndata: ${MULTI_BYTE}\n\n`,
    {
      events: [message(MULTI_BYTE, MULTI_BYTE, MULTI_BYTE)],
      lastEventId: MULTI_BYTE,
      extraChunkings: everyTwoWaySplit(encodeUtf8(`event: ${MULTI_BYTE}\nid: ${MULTI_BYTE}\ndata: ${MULTI_BYTE}\n\n`)),
    },
  ),
  make(UTF8, 'a correctly encoded U+FFFD is text', 'data: \uFFFD\n\n', { events: [message('\uFFFD')] }),
  ...(
    [
      ['a lone continuation byte', [0x80], '\uFFFD'],
      ['a lead byte before ASCII', [0xc3, 0x28], '\uFFFD('],
      ['a truncated 3-byte sequence', [0xe6, 0x97], '\uFFFD'],
      ['an overlong encoding', [0xc0, 0xaf], '\uFFFD\uFFFD'],
      ['a UTF-16 surrogate', [0xed, 0xa0, 0x80], '\uFFFD\uFFFD\uFFFD'],
      ['above U+10FFFF', [0xf4, 0x90, 0x80, 0x80], '\uFFFD\uFFFD\uFFFD\uFFFD'],
      ['0xFF', [0xff], '\uFFFD'],
    ] as const
  ).map(([name, bad, replaced]) =>
    make(UTF8, `invalid: ${name}`, bytesOf('data: a', bad, 'b\n\n'), {
      events: [message(`a${replaced}b`)],
      findings: ['sse.invalid-utf8'],
    }),
  ),
  make(
    UTF8,
    'invalid UTF-8 in the event type and the id',
    bytesOf('event: e', [0xff], '\nid: i', [0xfe], '\ndata: x\n\n'),
    {
      events: [message('x', 'i\uFFFD', 'e\uFFFD')],
      lastEventId: 'i\uFFFD',
      findings: ['sse.invalid-utf8', 'sse.invalid-utf8'],
    },
  ),
  make(UTF8, 'a truncated sequence right before the line ending', bytesOf('data: a', [0xf0, 0x9f, 0x98], '\n\n'), {
    events: [message('a\uFFFD')],
    findings: ['sse.invalid-utf8'],
  }),
];
