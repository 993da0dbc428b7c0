import { useEffect, useMemo, useRef, useState } from 'react';
import type { DiagnosticPayload } from '../../../src-shared/contract';
import type { ChunkStatistics } from '../../../src-shared/diagnostics/chunk-stats';
import { SEVERITIES, type Severity } from '../../../src-shared/diagnostics/severity';
import { useActiveSession, useStore, useStoreValue, useWatchSession } from '../../app/hooks';
import type { AppModel, SessionData, ViewProps } from '../../model/types';
import { EmptyState } from '../../components/EmptyState';
import {
  filterGroups,
  groupByRule,
  locationLabel,
  severityCounts,
  type RuleGroup,
  type SeverityFilter,
} from '../../model/diagnostics';
import { asChunkStatistics, hasNetworkChunks } from '../../model/diagnostics-charts';
import { labelAgents, withAgentNames, type AgentLabel } from '../../model/agents';
import { noFindingsText } from '../../model/no-findings';
import { SafeMarkdown } from '../blocks/SafeMarkdown';
import { ChunkCharts } from './ChunkCharts';
import { ChartsPlaceholder } from './ChartsPlaceholder';
import { jumpToFinding } from './jump';
import { ruleDoc } from './rule-docs';
import { DIAGNOSTIC_IDS } from './testids';
import './diagnostics.css';

/**
 * Findings grouped by rule (severity, count, the rule's title and documentation; a click lands
 * on the row and its bytes) beside the session's chunk-size charts.
 */
export function DiagnosticsView({ app }: ViewProps) {
  const session = useActiveSession(app);
  if (!session) {
    return (
      <div className="diagnostics-view" data-testid={DIAGNOSTIC_IDS.view}>
        <EmptyState title="No session selected" testId={DIAGNOSTIC_IDS.empty}>
          Open a recording or connect to an agent: every finding of the decoder, and charts of how the stream was
          chunked, appear here.
        </EmptyState>
      </div>
    );
  }
  return <SessionDiagnostics key={session.id} app={app} session={session} />;
}

/** Findings listed per group before "show all". */
const FINDINGS_SHOWN = 50;
/** Live sessions refresh their statistics at most this often. */
const STATS_REFRESH_MS = 1000;

function useStats(app: AppModel, session: SessionData): { stats: ChunkStatistics | null; error: string | null } {
  const [state, setState] = useState<{ stats: ChunkStatistics | null; error: string | null }>({
    stats: null,
    error: null,
  });
  const live =
    session.summary.state === 'streaming' ||
    session.summary.state === 'connecting' ||
    session.summary.state === 'loading';
  const lastFetch = useRef(-Infinity);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  // Every batch bumps the total; while live, fetches are paced to one per STATS_REFRESH_MS, and
  // a fetch in flight is never dropped because another batch arrived.
  useEffect(() => {
    const wait = live ? Math.max(0, lastFetch.current + STATS_REFRESH_MS - performance.now()) : 0;
    const timer = window.setTimeout(() => {
      lastFetch.current = performance.now();
      app
        .commands(session.id)
        .stats()
        .then(
          (value) => {
            if (!mounted.current) return;
            const stats = asChunkStatistics(value);
            setState(
              stats
                ? { stats, error: null }
                : { stats: null, error: 'Main sent statistics in a shape this renderer does not know.' },
            );
          },
          (error: unknown) => {
            if (mounted.current)
              setState((s) => ({ stats: s.stats, error: error instanceof Error ? error.message : String(error) }));
          },
        );
    }, wait);
    return () => window.clearTimeout(timer);
  }, [app, session.id, session.total, session.summary.state, live]);
  return state;
}

function SessionDiagnostics({ app, session }: { app: AppModel; session: SessionData }) {
  const theme = useStore(app.theme);
  // One boolean of the list: its counts move with every batch, which must not re-render the charts.
  const networkChunks = useStoreValue(app.sessions, (sessions) => hasNetworkChunks(session.summary, sessions.list));
  const [severities, setSeverities] = useState<SeverityFilter>({ error: true, warning: true, info: true });
  const [text, setText] = useState('');
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  useWatchSession(app, session.id, 'diagnostics');
  // A finding on a block lands on the block's first envelope.
  useWatchSession(app, session.id, 'blocks');
  const groups = useMemo(() => groupByRule(session.diagnostics), [session.diagnostics]);
  const counts = useMemo(() => severityCounts(session.diagnostics), [session.diagnostics]);
  const shown = useMemo(() => filterGroups(groups, severities, text), [groups, severities, text]);
  const { stats, error: statsError } = useStats(app, session);

  // The worst group starts open (groups are sorted errors first): that is what a reader came for.
  const first = groups[0]?.rule;
  useEffect(() => {
    if (first) setOpen((current) => (current.size === 0 ? new Set([first]) : current));
  }, [first]);

  const toggle = (rule: string): void =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(rule)) next.delete(rule);
      else next.add(rule);
      return next;
    });

  return (
    <div className="diagnostics-view" data-testid={DIAGNOSTIC_IDS.view}>
      <div className="toolbar diagnostics-toolbar">
        {SEVERITIES.map((severity) => (
          <button
            key={severity}
            type="button"
            className={`pill-toggle sev-toggle sev-${severity} ${severities[severity] ? 'is-on' : ''}`}
            aria-pressed={severities[severity]}
            data-testid={`${DIAGNOSTIC_IDS.severityToggle}-${severity}`}
            onClick={() => setSeverities((s) => ({ ...s, [severity]: !s[severity] }))}
          >
            <SeverityIcon severity={severity} /> {counts[severity]}{' '}
            {severity === 'info' ? 'info' : `${severity}${counts[severity] === 1 ? '' : 's'}`}
          </button>
        ))}
        <input
          className="filter-input"
          type="search"
          placeholder="Filter rules and messages"
          value={text}
          onChange={(e) => setText(e.target.value)}
          data-testid={DIAGNOSTIC_IDS.filterText}
        />
        <span className="spacer" />
        {session.diagnosticsLoaded && (
          <span className="muted" data-testid={DIAGNOSTIC_IDS.summary}>
            {session.diagnostics.length} finding{session.diagnostics.length === 1 ? '' : 's'} · {groups.length} rule
            {groups.length === 1 ? '' : 's'}
          </span>
        )}
      </div>
      <div className="diagnostics-split">
        <div className="findings-pane">
          {session.diagnostics.length === 0 ? (
            <EmptyState
              title={session.diagnosticsLoaded ? 'No findings' : 'Loading findings…'}
              testId={DIAGNOSTIC_IDS.empty}
            >
              {session.diagnosticsLoaded ? noFindingsText(session.summary) : null}
            </EmptyState>
          ) : shown.length === 0 ? (
            <EmptyState title="Nothing matches the filter" />
          ) : (
            shown.map((group) => (
              <RuleGroupView
                key={group.rule}
                app={app}
                session={session}
                group={group}
                open={open.has(group.rule)}
                onToggle={() => toggle(group.rule)}
              />
            ))
          )}
        </div>
        <div className="charts-pane">
          {statsError && (
            <div className="inline-error" data-testid={DIAGNOSTIC_IDS.statsError}>
              Chunk statistics unavailable: {statsError}
            </div>
          )}
          {stats ? (
            <ChunkCharts
              stats={stats}
              theme={theme}
              onEnvelope={(seq) => app.selectRow(seq, { reveal: true })}
              legStarts={session.detail?.legs.map((leg) => leg.startedAt) ?? []}
              networkChunks={networkChunks}
            />
          ) : (
            !statsError && <ChartsPlaceholder caption="loading chunk statistics…" />
          )}
        </div>
      </div>
    </div>
  );
}

function SeverityIcon({ severity }: { severity: Severity }) {
  return <span className={`sev-icon sev-icon-${severity}`} aria-label={severity} role="img" />;
}

function RuleGroupView({
  app,
  session,
  group,
  open,
  onToggle,
}: {
  app: AppModel;
  session: SessionData;
  group: RuleGroup;
  open: boolean;
  onToggle: () => void;
}) {
  const [all, setAll] = useState(false);
  const [docOpen, setDocOpen] = useState(false);
  const doc = ruleDoc(group.rule);
  const findings = all ? group.findings : group.findings.slice(0, FINDINGS_SHOWN);
  const agents = useMemo(() => labelAgents(session.agents), [session.agents]);
  return (
    <section
      className={`rule-group sev-${group.severity}`}
      data-testid={`${DIAGNOSTIC_IDS.group}-${group.rule}`}
      data-rule={group.rule}
    >
      <button
        type="button"
        className="rule-head"
        aria-expanded={open}
        onClick={onToggle}
        data-testid={DIAGNOSTIC_IDS.groupHeader}
      >
        <span className="rule-caret">{open ? '▾' : '▸'}</span>
        <SeverityIcon severity={group.severity} />
        <span className="rule-id mono">{group.rule}</span>
        <span className="rule-title" title={group.title}>
          {group.title}
        </span>
        <span className="rule-count">{group.count}</span>
      </button>
      {open && (
        <div className="rule-body">
          {doc ? (
            <div className="rule-doc-wrap">
              <button
                type="button"
                className="link-button"
                onClick={() => setDocOpen((o) => !o)}
                data-testid={DIAGNOSTIC_IDS.ruleDocToggle}
              >
                {docOpen ? '▾ About this rule' : '▸ About this rule'}
              </button>
              {docOpen && (
                <div className="rule-doc" data-testid={DIAGNOSTIC_IDS.ruleDoc}>
                  <SafeMarkdown app={app} text={doc} testId={DIAGNOSTIC_IDS.ruleDoc} />
                </div>
              )}
            </div>
          ) : (
            !group.known && (
              <div className="muted small">This rule is not in this renderer's catalogue (a newer decoder?).</div>
            )
          )}
          <ul className="findings">
            {findings.map((d) => (
              <FindingRow key={d.seq} app={app} session={session} finding={d} agents={agents} />
            ))}
          </ul>
          {group.findings.length > FINDINGS_SHOWN && (
            <button type="button" className="link-button" onClick={() => setAll((a) => !a)}>
              {all ? 'Show fewer' : `Show all ${group.findings.length}`}
            </button>
          )}
        </div>
      )}
    </section>
  );
}

function FindingRow({
  app,
  session,
  finding,
  agents,
}: {
  app: AppModel;
  session: SessionData;
  finding: DiagnosticPayload;
  agents: ReadonlyMap<string, AgentLabel>;
}) {
  return (
    <li>
      <button
        type="button"
        className="finding"
        onClick={() => void jumpToFinding(app, session, finding)}
        title={`${finding.message}\n\nShow the row and its bytes in the timeline`}
        data-testid={DIAGNOSTIC_IDS.finding}
        data-seq={finding.seq}
      >
        <span className="finding-text">
          <span className="finding-msg">{withAgentNames(finding.message, agents)}</span>
          <span className="finding-loc mono">{locationLabel(finding.at)}</span>
        </span>
        <span className="finding-go">→</span>
      </button>
    </li>
  );
}

/** Live sessions and recordings hold network reads; other files hold blocks of the file, which say nothing about the network. */
