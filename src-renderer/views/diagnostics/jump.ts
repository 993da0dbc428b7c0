import type { DiagnosticPayload } from '../../../src-shared/contract';
import type { AppModel, SessionData } from '../../model/types';
import { bytesOf, findRow, type RowPosition } from '../../model/diagnostics';

/**
 * Lands on a finding: selects its timeline row (the envelope, the block's first envelope, or
 * the envelope nearest its frame or bytes) and highlights its bytes in the raw view.
 */
export async function jumpToFinding(app: AppModel, session: SessionData, finding: DiagnosticPayload): Promise<void> {
  const sessionId = session.id;
  const positions = new Map<number, RowPosition>();
  const probe = async (seq: number): Promise<RowPosition> => {
    const known = positions.get(seq);
    if (known) return known;
    const envelope = await app.commands(sessionId).envelope(seq);
    const position = { leg: envelope.leg, frame: envelope.frame, byteStart: envelope.byteStart };
    positions.set(seq, position);
    return position;
  };
  const located = await app.run(
    'Go to finding',
    () => findRow(finding.at, session.total, (block) => session.blocks[block]?.firstEnvelope, probe),
    sessionId,
  );
  if (located === undefined) return;
  const bytes = bytesOf(finding.at);
  if (located !== null) app.selectRow(located, { reveal: true });
  else app.navigate('timeline');
  if (bytes) app.highlightBytes(bytes.leg, bytes.start, bytes.end);
  if (located === null && !bytes) {
    const where = finding.at.line !== undefined ? ` (file line ${finding.at.line})` : '';
    app.reportError(
      'Go to finding',
      new Error(
        `“${finding.rule}” is about the source file or the session as a whole${where}; it has no envelope or bytes to show.`,
      ),
      sessionId,
    );
  }
}
