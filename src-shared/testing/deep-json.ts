/** Deeply nested JSON, the input that used to overflow the stack of every recursive walk. */

/** `[[[…1…]]]` nested `depth` arrays deep. */
export function nestedArrayText(depth: number): string {
  return `${'['.repeat(depth)}1${']'.repeat(depth)}`;
}

/** `{"a":{"a":…{"a":1}…}}` nested `depth` objects deep. */
export function nestedObjectText(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

export const DEEP_AGENT = '11111111-1111-4111-8111-111111111111';

/**
 * A JSON-envelope capture whose first envelope carries an extra field nested `depth` levels
 * deep (about 10 KB at 5,000 levels), then a normal final envelope and [DONE].
 */
export function deeplyNestedCapture(depth = 5000): string {
  return [
    `data: {"type":"text","agent":"${DEEP_AGENT}","final":false,"delta":"deep ","nested":${nestedArrayText(depth)}}`,
    `data: {"type":"text","agent":"${DEEP_AGENT}","final":true,"delta":"end","tree":${nestedObjectText(depth)}}`,
    'data: [DONE]',
    '',
    '',
  ].join('\n\n');
}
