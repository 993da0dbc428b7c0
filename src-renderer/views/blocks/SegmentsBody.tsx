import type { SegmentPayload } from '../../../src-shared/contract';
import type { AppModel } from '../../model/types';
import { fileLanguage, metadataText, otherMetadata, segmentLabel, segmentPresentation } from '../../model/segments';
import { ClippedText } from './ClippedText';
import { SafeMarkdown } from './SafeMarkdown';
import { BLOCK_IDS } from './testids';

/**
 * A text block as the segments the inline stage found in it (docs/inline.md): text as
 * markdown, reasoning collapsed, tool calls with their parameters, the completion's result,
 * file writes as code under their path, bash commands. Every string comes from the stream and
 * is rendered as text (SafeMarkdown for prose), never as HTML.
 */
export function SegmentsBody({
  app,
  segments,
  live,
  held,
}: {
  app: AppModel;
  segments: readonly SegmentPayload[];
  live: boolean;
  held: number;
}) {
  return (
    <div className="segments" data-testid={BLOCK_IDS.segments}>
      {segments.map((segment, index) => (
        <SegmentView
          key={segment.id}
          app={app}
          segment={segment}
          streaming={live && index === segments.length - 1 && !segment.complete}
        />
      ))}
      {live && held > 0 && (
        <span
          className="holdback-note"
          data-testid={BLOCK_IDS.segmentsHeld}
          title="Characters that may be part of a tag or marker; shown once the next delta decides"
        >
          ⋯ {held} char{held === 1 ? '' : 's'} held back
        </span>
      )}
    </div>
  );
}

function SegmentView({ app, segment, streaming }: { app: AppModel; segment: SegmentPayload; streaming: boolean }) {
  const presentation = segmentPresentation(segment.type);
  const common = {
    className: `segment segment-${presentation}`,
    'data-testid': BLOCK_IDS.segment,
    'data-type': segment.type,
    'data-complete': segment.complete ? 'true' : 'false',
  };
  const status = !segment.complete && (
    <span
      className={`chip chip-small ${streaming ? 'chip-live' : 'chip-warning'}`}
      title={streaming ? 'Still streaming' : 'Its closing marker never came (inline.unclosed)'}
    >
      {streaming ? 'streaming' : 'unclosed'}
    </span>
  );
  if (presentation === 'text') {
    return (
      <div {...common}>
        <SafeMarkdown app={app} text={segment.content} />
      </div>
    );
  }
  if (presentation === 'reasoning') {
    return (
      <details {...common} open={streaming}>
        <summary className="segment-header">
          <span className="segment-chip">{segmentLabel(segment.type)}</span>
          <span className="segment-preview muted">{segment.content.trim().slice(0, 160)}</span>
          {status}
        </summary>
        <pre className="block-pre thinking-text">{segment.content}</pre>
      </details>
    );
  }
  const name = metadataText(segment, 'tool_name');
  const path = metadataText(segment, 'path');
  const extra = otherMetadata(segment);
  const params = Object.entries(segment.params).filter(
    ([key]) => !(presentation === 'completion' && key === 'result') && !(presentation === 'file' && key === 'path'),
  );
  return (
    <div {...common}>
      <div className="segment-header">
        <span className="segment-chip">{segmentLabel(segment.type)}</span>
        {name !== undefined && (
          <span className="segment-name mono" data-testid={BLOCK_IDS.segmentName}>
            {name}
          </span>
        )}
        {path !== undefined && (
          <span className="segment-path mono" data-testid={BLOCK_IDS.segmentPath}>
            {path}
          </span>
        )}
        {presentation === 'file' && <span className="muted">{fileLanguage(segment)}</span>}
        {extra.map(([key, value]) => (
          <span key={key} className="kv">
            <span className="kv-k">{key}</span>{' '}
            <span className="kv-v" title={value}>
              {value}
            </span>
          </span>
        ))}
        <span className="spacer" />
        {status}
        <span className="muted mono segment-id">{segment.id}</span>
      </div>
      {params.length > 0 && (
        <table className="segment-params" data-testid={BLOCK_IDS.segmentParams}>
          <tbody>
            {params.map(([key, value]) => (
              <tr key={key}>
                <th className="mono">{key}</th>
                <td>
                  <pre className="block-pre">{value}</pre>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <SegmentContent app={app} segment={segment} presentation={presentation} hasParams={params.length > 0} />
    </div>
  );
}

function SegmentContent({
  app,
  segment,
  presentation,
  hasParams,
}: {
  app: AppModel;
  segment: SegmentPayload;
  presentation: ReturnType<typeof segmentPresentation>;
  hasParams: boolean;
}) {
  switch (presentation) {
    case 'completion': {
      const result = segment.params['result'];
      return result !== undefined ? <SafeMarkdown app={app} text={result} /> : <ClippedText text={segment.content} />;
    }
    case 'file':
      return <ClippedText text={segment.content} className="segment-code" testId={BLOCK_IDS.segmentCode} />;
    case 'command':
      return (
        <pre className="block-pre segment-command" data-testid={BLOCK_IDS.segmentCode}>
          <span className="segment-prompt">$ </span>
          {segment.content}
        </pre>
      );
    case 'tool-call':
      // The parameters say it all once they are read; the raw markup stays one click away.
      return hasParams ? (
        <details className="segment-raw">
          <summary className="muted">markup</summary>
          <pre className="block-pre">{segment.content}</pre>
        </details>
      ) : (
        <ClippedText text={segment.content} />
      );
    default:
      return <ClippedText text={segment.content} />;
  }
}
