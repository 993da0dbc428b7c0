import { isJsonObject } from '../../json/values';

/** How much of a base64 string is padding (`=`): it decodes to no byte. */
const PADDING = /=+$/;

/**
 * A choice's spoken answer (`modalities: ["text", "audio"]`), as its deltas' `audio` pieces
 * give it (OpenAI's `ChatCompletionStreamResponseDeltaAudio`): an `id`, base64 `data`, the
 * `transcript` text, and in the last piece alone its `expires_at`. The transcript streams as a
 * text block of its own (channel `audio_transcript`); what is kept here is what the message
 * summary shows of the audio: its id, its expiry, and how many bytes of audio came, never the
 * base64 itself, which can run to megabytes and stays in the chunks' own events.
 */
export class ChoiceAudio {
  private id = '';
  private expiresAt: number | undefined;
  private dataBytes = 0;
  private pieces = 0;

  /** Takes one `delta.audio` piece; returns its transcript text ('' for none). */
  add(piece: unknown): string {
    if (!isJsonObject(piece)) return '';
    this.pieces++;
    if (typeof piece['id'] === 'string' && piece['id'] !== '') this.id = piece['id'];
    if (typeof piece['expires_at'] === 'number') this.expiresAt = piece['expires_at'];
    const data = piece['data'];
    // Each piece is base64 of its own: 4 characters carry 3 bytes, the padding none.
    if (typeof data === 'string') this.dataBytes += Math.floor((data.replace(PADDING, '').length * 3) / 4);
    const transcript = piece['transcript'];
    return typeof transcript === 'string' ? transcript : '';
  }

  /** The audio's id, for the assistant message a client sends back (it names the audio by it). */
  get audioId(): string {
    return this.id;
  }

  /** What the message summary shows of it; undefined when the choice sent no audio. */
  summary(): Record<string, unknown> | undefined {
    if (this.pieces === 0) return undefined;
    const out: Record<string, unknown> = {};
    if (this.id !== '') out['id'] = this.id;
    if (this.expiresAt !== undefined) out['expires_at'] = this.expiresAt;
    out['data_bytes'] = this.dataBytes;
    return out;
  }
}
