import { decodeAttributeValueLeniently } from '../dialects/legacy-xml/entities';
import { CDATA_CLOSE, CDATA_OPEN } from '../dialects/legacy-xml/markup';
import type { MarkerScanner } from './markers';
import { readUnclosedParams, type UnclosedParamsForm } from './unclosed-params';

/** A parameter read from a value the text ended inside. */
export interface UnclosedParam {
  name: string;
  /** Its text as written (a file tool's content argument is content, not a value). */
  raw: string;
  /** Its value: entities decoded, trimmed. */
  value: string;
}

/**
 * The parameter value being read inside an action, a completion or a `<tool>`: its name, the
 * close tag that ends it, and its text, which may hold CDATA sections. Entities are decoded a
 * run at a time, when a CDATA section or the close tag ends the run, since a reference may be
 * split across deltas; CDATA content is verbatim. One object per parser, reset by `begin` for
 * each parameter.
 */
export class ParamValue {
  name = '';
  /** `</query>`, or `</arg>` for `<arg name="query">`. */
  close = '';
  /** Pieces already decoded (or verbatim CDATA). */
  private decoded = '';
  /** Raw text since the last decoded piece. */
  private raw = '';
  private inCdata = false;
  private scanner: MarkerScanner | null = null;

  /**
   * `show`: the value as written, markers included, for the segment's raw content.
   * `scannerFor`: the parser's scanner pool (markers.ts).
   */
  constructor(
    private readonly scannerFor: (markers: readonly string[]) => MarkerScanner,
    private readonly show: (text: string) => void,
  ) {}

  // Fields, not methods: the scanner calls them for every run it releases.
  private readonly onRaw = (content: string): void => {
    this.raw += content;
    this.show(content);
  };

  private readonly onCdata = (content: string): void => {
    this.decoded += content;
    this.show(content);
  };

  begin(name: string, tagName: string): void {
    this.name = name;
    this.close = `</${tagName}>`;
    this.decoded = '';
    this.raw = '';
    this.inCdata = false;
    this.scanner = this.scannerFor([this.close, CDATA_OPEN]);
  }

  /** Characters held back: the start of a marker not yet decided. */
  get held(): string {
    return this.scanner?.held ?? '';
  }

  /** Read the value from `s[i]`: stops after its close tag (`closed`) or at the end of `s`. */
  read(s: string, i: number): { next: number; closed: boolean } {
    let at = i;
    while (at < s.length && this.scanner) {
      const { hit, next } = this.scanner.scan(s, at, this.inCdata ? this.onCdata : this.onRaw);
      at = next;
      if (hit === -1) break;
      if (this.inCdata) {
        this.show(CDATA_CLOSE);
        this.inCdata = false;
        this.scanner = this.scannerFor([this.close, CDATA_OPEN]);
        continue;
      }
      this.settleRaw();
      if (hit === 0) {
        this.show(this.close);
        return { next: at, closed: true };
      }
      this.show(CDATA_OPEN);
      this.inCdata = true;
      this.scanner = this.scannerFor([CDATA_CLOSE]);
    }
    return { next: at, closed: false };
  }

  /** The value read, trimmed. */
  value(): string {
    return this.decoded.trim();
  }

  /** The parameter's tag as the text writes it, for a diagnostic. */
  describe(): string {
    return this.close === '</arg>' ? `<arg name="${this.name}">` : `<${this.name}>`;
  }

  /**
   * The text ended inside this value: what is held is part of it, and what arrived is the
   * value and, outside a CDATA section, the parameters written after it (unclosed-params.ts).
   */
  endOfText(form: UnclosedParamsForm): UnclosedParam[] {
    this.onRaw(this.held);
    const found: [string, string][] = this.inCdata
      ? [[this.name, this.raw]]
      : readUnclosedParams(this.name, this.raw, form);
    return found.map(([name, raw], i) => {
      const decoded = this.inCdata ? raw : decodeAttributeValueLeniently(raw);
      return { name, raw, value: (i === 0 ? this.decoded + decoded : decoded).trim() };
    });
  }

  private settleRaw(): void {
    this.decoded += decodeAttributeValueLeniently(this.raw);
    this.raw = '';
  }
}
