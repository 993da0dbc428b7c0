import { AGENT_ENDPOINTS } from '../../agents/wire-formats';
import type { DialectModule } from '../types';
import { announcesRaw } from './announced';
import { createLegacyXmlDecoder } from './decoder';
import { LESS_THAN } from './markup';

/** The legacy XML stream: one XML item per event (a meta_init announcing raw is the raw dialect's). */
export const legacyXmlDialect: DialectModule<'xml'> = {
  id: 'xml',
  label: 'Legacy XML tags',
  detect: (frame) => frame.data.charCodeAt(frame.start) === LESS_THAN && !announcesRaw(frame),
  create: createLegacyXmlDecoder,
  syntax: 'xml',
  terminator: 'done-frame',
  evidence: AGENT_ENDPOINTS,
  agentXmlItems: true,
  serverGenerations: true,
  textAsXml: true,
};
