import { readFileSync } from 'node:fs';
import { describe, expect, it, test } from 'vitest';
import { externalFixturePath, listProviderFixtures, providerFixturePath } from '../../../src-main/testing/fixtures';
import { DIALECT_REGISTRY } from '../registry';
import { sniffFrame } from '../sniff';

const claimants = (data: string): string[] =>
  DIALECT_REGISTRY.modules.filter((m) => m.detect(sniffFrame({ event: '', data }))).map((m) => m.id);

/** The data of every event of an SSE file whose events are one `data:` line each. */
const eventData = (path: string): string[] =>
  readFileSync(path, 'utf8')
    .split('\n\n')
    .filter((event) => event.includes('data: '))
    .map((event) => event.slice(event.indexOf('data: ') + 'data: '.length));

describe('AG-UI detection', () => {
  test.each(listProviderFixtures())('%s: AG-UI claims its own events and no other dialect’s', (name) => {
    for (const data of eventData(providerFixturePath(name))) {
      const claimed = claimants(data);
      if (name.startsWith('ag-ui/')) expect(claimed, data.slice(0, 80)).toEqual(['ag-ui']);
      else expect(claimed, data.slice(0, 80)).not.toContain('ag-ui');
    }
  });

  it('claims the recorded dojo events too', () => {
    for (const data of eventData(externalFixturePath('ag-ui/dojo/strands-typescript-shared-state-recipe.sse')))
      expect(claimants(data)).toEqual(['ag-ui']);
  });

  test.each([
    ['RUN_STARTED with its ids', '{"type":"RUN_STARTED","threadId":"t","runId":"r"}'],
    ['RUN_ERROR with a message', '{"type":"RUN_ERROR","message":"boom"}'],
    ['a text delta', '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"hi"}'],
    ['a retired thinking event', '{"type":"THINKING_TEXT_MESSAGE_CONTENT","delta":"hmm"}'],
    ['a CUSTOM with its name', '{"type":"CUSTOM","name":"progress","value":1}'],
  ])('claims %s', (_name, data) => {
    expect(claimants(data)).toEqual(['ag-ui']);
  });

  test.each([
    ['RUN_STARTED without ids', '{"type":"RUN_STARTED"}'],
    ['RUN_ERROR without a message', '{"type":"RUN_ERROR"}'],
    ['a CUSTOM without a name', '{"type":"CUSTOM"}'],
    ['a RAW without its event', '{"type":"RAW"}'],
    ['an agent envelope with an AG-UI type', '{"type":"TEXT_MESSAGE_START","agent":"a","final":false,"delta":""}'],
    ['a segment event', '{"type":"SEGMENT_START","segment_id":"s","segment_type":"text","payload":{}}'],
    ['another SCREAMING_CASE type', '{"type":"MESSAGE_DELTA","delta":"x"}'],
  ])('does not claim %s', (_name, data) => {
    expect(claimants(data)).not.toContain('ag-ui');
  });
});
