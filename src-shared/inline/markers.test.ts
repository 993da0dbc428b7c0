import { describe, expect, it } from 'vitest';
import { createScannerPool } from './markers';

describe('createScannerPool', () => {
  it('gives the same scanner for the same marker set, with what it held forgotten', () => {
    const scannerFor = createScannerPool();
    const first = scannerFor(['</q>', ']]>']);
    first.scan('ab</', 0, () => undefined);
    expect(first.held).toBe('</');
    const again = scannerFor(['</q>', ']]>']);
    expect(again).toBe(first);
    expect(again.held).toBe('');
    expect(scannerFor([']]>', '</q>'])).not.toBe(first);
  });
});
