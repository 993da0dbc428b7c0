import type { RuleId } from '../../../../src-shared/diagnostics/rules';
import type { Format } from '../script';
import { deltas, type Scenario, singleAgentScenario } from './scenario';

/**
 * Agents that keep their protocol inside the model's text (docs/inline.md): each API turn is
 * one text block whose deltas cut the tags at arbitrary points, as a model streams them. The
 * inline stage reads them in every wire format.
 */

/** The same findings in every format: the inline stage runs over text blocks of any dialect. */
function everyFormat(rules: readonly RuleId[]): Partial<Record<Format, readonly RuleId[]>> {
  return { json: rules, xml: rules, raw: rules };
}

/** One scenario whose turns are the given model texts, each a text block. */
function textTurns(info: Omit<Scenario, 'build'>, turns: readonly string[]): Scenario {
  return singleAgentScenario(info, (agent) => {
    for (const text of turns) agent.turn().text(deltas(text)).end('end_turn');
  });
}

export const inlineXml = textTurns(
  {
    id: 'inline-xml',
    title: 'XML tool tags in text',
    summary:
      'An agent without native tools: each turn is <thinking> and one tool tag (<search>, <extract>) with its parameters, then <attempt_completion><result>.',
    keywords: ['inline-xml'],
    samplePrompt: 'inline-xml: how does login work?',
  },
  [
    '<thinking>User wants to understand the login flow. I should search for relevant code.</thinking>\n<search>\n  <query>login user function</query>\n  <path>./src/auth</path>\n</search>',
    '<thinking>The search found `loginUser` in `src/auth/login.js`. I should extract this function to show the user.</thinking>\n<extract>\n  <file_path>src/auth/login.js#loginUser</file_path>\n</extract>',
    '<thinking>I have the function code. The task is complete.</thinking>\n<attempt_completion>\n  <result>Login is handled by `loginUser` in `src/auth/login.js`:\n```javascript\nfunction loginUser(email, password) { /* ... */ }\n```\nIt checks the credentials &amp; issues a session token.</result>\n</attempt_completion>',
  ],
);

export const inlineSegments = textTurns(
  {
    id: 'inline-segments',
    title: 'Segment tags in text',
    summary:
      'A coding agent writing <write_file path>, <run_bash> and <tool name="…"> forms (write_file with __START_CONTENT__ markers, patch_file, a generic tool) inside its text.',
    keywords: ['inline-segments'],
    samplePrompt: 'inline-segments: create a hello script and run it',
  },
  [
    'I will create the script first.\n<write_file path="scripts/hello.py">import sys\n\ndef main() -> int:\n    if len(sys.argv) < 2:\n        print("usage: hello NAME")\n        return 1\n    print(f"Hello, {sys.argv[1]}!")\n    return 0\n</write_file>\nNow run it:\n<run_bash>python scripts/hello.py World && echo "exit $?"</run_bash>',
    'Adding a test with the tool form:\n<tool name="write_file"><arguments><arg name="path">tests/test_hello.py</arg><arg name="content">\n__START_CONTENT__\nfrom scripts.hello import main\n\ndef test_usage():\n    assert main() == 1  # </arg> here is file content\n__END_CONTENT__\n</arg></arguments></tool>\n<tool name="patch_file"><arguments><arg name="path">scripts/hello.py</arg><arg name="patch">--- a/scripts/hello.py\n+++ b/scripts/hello.py\n@@ -7 +7 @@\n-    print(f"Hello, {sys.argv[1]}!")\n+    print(f"Hello, {sys.argv[1]}!", flush=True)\n</arg></arguments></tool>\n<tool name="run_bash"><arguments><arg name="command">pytest -q tests/</arg></arguments></tool>\n<tool name="read_file"><arguments><arg name="path">README.md</arg><arg name="limit">40</arg></arguments></tool>',
  ],
);

export const inlineSentinels = textTurns(
  {
    id: 'inline-sentinels',
    title: 'Sentinels in text',
    summary:
      'Segments marked with [[SEG_START {json}]] … [[SEG_END]]: reasoning, a file write and a command, with a header that holds "]]".',
    keywords: ['inline-sentinels'],
    samplePrompt: 'inline-sentinels: write the config and apply it',
  },
  [
    '[[SEG_START {"type":"reasoning"}]]The config needs a port and the allowed hosts.[[SEG_END]]\nHere is the file:\n[[SEG_START {"type":"write_file","path":"config/app.json"}]]{\n  "port": 8080,\n  "hosts": [["localhost", "127.0.0.1"]]\n}\n[[SEG_END]]\nAnd apply it:\n[[SEG_START {"type":"run_bash","meta":{"tags":[["deploy"]]}}]]./apply.sh config/app.json[[SEG_END]]',
  ],
);

export const inlineMalformedXml = textTurns(
  {
    id: 'inline-malformed-xml',
    title: 'Broken XML tool tags',
    summary:
      'XML tool protocol broken every way: a mismatched closing tag, a missing required parameter, text after the action, two actions, a turn with no action, an action never closed.',
    keywords: ['inline-malformed-xml'],
    samplePrompt: 'inline-malformed-xml',
    demonstrates: everyFormat([
      'inline.mismatched-close',
      'inline.missing-param',
      'inline.text-after-action',
      'inline.multiple-actions',
      'inline.no-action',
      'inline.unclosed',
    ]),
  },
  [
    '<thinking>Search, but with the wrong closing tag.</thinking>\n<search>\n  <path>./src</path>\n</query>\n</search>\nI will also look at the tests.\n<extract><file_path>tests/login.test.js</file_path></extract>',
    '<thinking>I know the answer without tools.</thinking>\nLogin uses JWT cookies.',
    '<thinking>One more search.</thinking>\n<search>\n  <query>verifyToken</query>\n  <path>./src',
  ],
);

export const inlineMalformedSegments = textTurns(
  {
    id: 'inline-malformed-segments',
    title: 'Broken segment tags',
    summary:
      'A write_file tool form without a path, a stray </run_bash>, and a <write_file> left open when the text ends.',
    keywords: ['inline-malformed-segments'],
    samplePrompt: 'inline-malformed-segments',
    demonstrates: everyFormat(['inline.missing-param', 'inline.mismatched-close', 'inline.unclosed']),
  },
  [
    'Writing without a path:\n<tool name="write_file"><arguments><arg name="content">x = 1\n</arg></arguments></tool>\nA stray closing tag: </run_bash>\n<write_file path="notes.md"># Notes\nThe stream ends before the closing tag',
  ],
);

export const inlineMalformedSentinels = textTurns(
  {
    id: 'inline-malformed-sentinels',
    title: 'Broken sentinels',
    summary:
      'Sentinel headers without a type and with invalid JSON (kept as text), and a sentinel segment never ended.',
    keywords: ['inline-malformed-sentinels'],
    samplePrompt: 'inline-malformed-sentinels',
    demonstrates: everyFormat(['inline.invalid-sentinel', 'inline.unclosed']),
  },
  [
    '[[SEG_START {"path":"/a.py"}]]no type in this header[[SEG_END]]\n[[SEG_START {path: /b.py}]]not JSON[[SEG_END]]\n[[SEG_START {"type":"write_file","path":"/c.py"}]]print("never ended")',
  ],
);

export const INLINE_SCENARIOS: readonly Scenario[] = [
  inlineXml,
  inlineSegments,
  inlineSentinels,
  inlineMalformedXml,
  inlineMalformedSegments,
  inlineMalformedSentinels,
];
