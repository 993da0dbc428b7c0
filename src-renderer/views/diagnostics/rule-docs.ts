import diagnosticsMarkdown from '../../../docs/diagnostics.md?raw';
import { parseRuleDocs } from '../../model/diagnostics';

/** docs/diagnostics.md, bundled with the app and split per rule on first use. */
let docs: Map<string, string> | null = null;

export function ruleDoc(rule: string): string | undefined {
  docs ??= parseRuleDocs(diagnosticsMarkdown);
  return docs.get(rule);
}
