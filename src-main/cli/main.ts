import { once } from 'node:events';
import { DIALECT_IDS } from '../../src-shared/dialects/registry';
import { INLINE_MODES } from '../../src-shared/inline/types';
// Bundled at build time (esbuild inlines it: scripts/build-cli.mjs), so the CLI says its
// version wherever its bundle is run from, and the bundle is stale when it changes. With the
// import attribute Node's own ESM loader requires of JSON (the e2e suite loads the sources so).
import PACKAGE from '../../package.json' with { type: 'json' };
import { showsProgress } from './progress';
import { errorText, terminalIo, UsageError, type CliIo, type Command, type StopSignal } from './io';

/** Commands load lazily so `inspect` does not pay for the HTTP servers' modules. */
const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  inspect: {
    summary: `inspect FILE... [--format auto|${DIALECT_IDS.join('|')}] [--inline ${INLINE_MODES.join('|')}] [--tools search:query,…] [--json] [--fail-on error|warning|info|end|none|RULE]... [--filter EXPR] [--workers N] [--har-entry N[,N…]]\n      format, end status, agents, counts, blocks, segments, diagnostics, envelopes a filter selects; exit 1 on what --fail-on selects (default error,end)`,
    load: async () => (await import('./commands/inspect')).inspect,
  },
  blocks: {
    summary:
      'blocks FILE [--format …] [--inline …] [--tools …] [--json] [--har-entry N[,N…]]  the reconstructed blocks; text blocks with their segments',
    load: async () => (await import('./commands/blocks')).blocks,
  },
  frames: {
    summary:
      'frames FILE... [--rechunk N|random:SEED | --filter EXPR] [--har-entry N[,N…]] --json   events exactly as an EventSource dispatches them',
    load: async () => (await import('./commands/frames')).frames,
  },
  check: {
    summary:
      "check FILE... --expect 'EXPR'... [--spec FILE] [--json] [--junit OUT] [--workers N] [--har-entry N[,N…]]   assertions over recordings (exit 1 on a failure)",
    load: async () => (await import('./commands/check')).check,
  },
  'demo-agent': {
    summary:
      'demo-agent [--port N] [--pace fast|realistic]        serve the demo agent (upstream API, json/xml/raw) until Ctrl-C',
    load: async () => (await import('./commands/demo-agent')).demoAgent,
  },
  diff: {
    summary:
      'diff LEFT RIGHT [--format …] [--json] [--strict]      block-level diff of two streams (exit 1 on differences)',
    load: async () => (await import('./commands/diff')).diff,
  },
  record: {
    summary:
      'record URL [-X METHOD] [-H "Name: value"]... [-d BODY|@FILE] -o FILE [--idle-timeout S] [--any-content-type]   record a live stream as it arrives (secrets redacted)',
    load: async () => (await import('./commands/record')).record,
  },
  answer: {
    summary:
      'answer FILE [--result ID=TEXT]... [--approve|--deny ID]... [--yes] [-H ...] [-o OUT]   send frontend-tool results or approvals for a paused run (or --url RUN_URL --agent-uuid UUID)',
    load: async () => (await import('./commands/answer')).answer,
  },
  proxy: {
    summary:
      'proxy --listen PORT --target URL [--record-dir DIR]   recording reverse proxy between a frontend and its agent server until Ctrl-C',
    load: async () => (await import('./commands/proxy')).proxy,
  },
  serve: {
    summary:
      'serve FILE [--port N] [--speed X|fast] [--rechunk N|byte] [--har-entry N] [--allow-origin ORIGIN]...   replay a recording as a live SSE endpoint until Ctrl-C',
    load: async () => (await import('./commands/serve')).serve,
  },
};

export function usage(): string {
  const lines = Object.values(COMMANDS).map((c) => `  stream-inspector ${c.summary}`);
  return [
    'Agent Stream Inspector — decode and diagnose LLM agent SSE streams.',
    '',
    'Usage:',
    ...lines,
    '',
    'FILE may be - for standard input.',
    'stream-inspector --version (or -V) prints the name and version.',
    '',
  ].join('\n');
}

/** The first SIGINT or SIGTERM, listened for from the first call on (then shared). */
function onStopSignal(): () => Promise<StopSignal> {
  let signalled: Promise<StopSignal> | undefined;
  return () =>
    (signalled ??= Promise.race([
      once(process, 'SIGINT').then((): StopSignal => 'SIGINT'),
      once(process, 'SIGTERM').then((): StopSignal => 'SIGTERM'),
    ]));
}

/**
 * The reader of stdout went away (`stream-inspector frames --json big.sse | head`): nothing
 * more can be printed, so the process ends as a Unix tool killed by SIGPIPE does (status 141),
 * quietly, instead of crashing on the write with a stack trace. Any other write error is not
 * this one's to hide.
 */
function endOnClosedPipe(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EPIPE') throw error;
  process.exit(CLOSED_PIPE_STATUS);
}

/** 128 + SIGPIPE (13), what a shell reports for a command killed by SIGPIPE. */
export const CLOSED_PIPE_STATUS = 141;

/** Resolves when `stream` takes writes again: at once unless its buffer is over its high-water mark; on its close or error too. */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  if (!stream.writableNeedDrain) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      for (const event of DRAIN_ENDS) stream.off(event, done);
      resolve();
    };
    for (const event of DRAIN_ENDS) stream.on(event, done);
  });
}

const DRAIN_ENDS = ['drain', 'close', 'error'] as const;

export function defaultIo(): CliIo {
  process.stdout.on('error', endOnClosedPipe);
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    drained: () => drained(process.stdout),
    stdin: process.stdin,
    cwd: process.cwd(),
    interrupted: onStopSignal(),
    // Carriage return and erase-to-end-of-line: the line is drawn over itself, and cleared.
    ...(showsProgress(process.stderr, process.env)
      ? { progress: (line) => process.stderr.write(line === null ? '\r\x1b[K' : `\r${line}\x1b[K`) }
      : {}),
  };
}

export async function main(argv: string[], rawIo: CliIo = defaultIo()): Promise<number> {
  const io = terminalIo(rawIo);
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    (name ? io.stdout : io.stderr)(usage());
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-V') {
    io.stdout(`${PACKAGE.name} ${PACKAGE.version}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`stream-inspector: unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
  // `inspect --help` is asked before anything is parsed (its options would refuse --help).
  const operands = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  if (operands.includes('--help') || operands.includes('-h')) {
    io.stdout(`Usage:\n  stream-inspector ${command.summary}\n\n(stream-inspector --help: every command)\n`);
    return 0;
  }
  try {
    return await (
      await command.load()
    )(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`stream-inspector ${name}: ${error.message}\n`);
      return 2;
    }
    io.stderr(`stream-inspector ${name}: ${errorText(error)}\n`);
    return 2;
  }
}
