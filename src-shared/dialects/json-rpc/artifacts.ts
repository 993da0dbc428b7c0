/** Where an artifact stands: still streaming, or closed by its lastChunk (and in which event). */
interface ArtifactState {
  lastChunkFrame: number | undefined;
  /** The name its first chunk gave (later chunks usually repeat only the id). */
  name: string;
}

/**
 * The chunk order of A2A artifacts within one task (`TaskArtifactUpdateEvent`): `append: true`
 * continues an artifact an earlier chunk started, `lastChunk: true` closes it. An append to an
 * artifact never started, and an append after its lastChunk, are out of order; a chunk with
 * `append: false` (or none) starts the artifact afresh, replacing any earlier one of that id.
 */
export class ArtifactChunks {
  private readonly artifacts = new Map<string, ArtifactState>();

  /** Takes one chunk; returns what is out of order about it, or undefined. */
  accept(key: string, name: string, append: boolean, lastChunk: boolean, frame: number): string | undefined {
    const previous = this.artifacts.get(key);
    let problem: string | undefined;
    if (append && previous === undefined)
      problem = `appends to artifact ${JSON.stringify(key)}, which no earlier chunk started`;
    else if (append && previous?.lastChunkFrame !== undefined)
      problem = `appends to artifact ${JSON.stringify(key)} after its lastChunk in event ${previous.lastChunkFrame}`;
    this.artifacts.set(key, { lastChunkFrame: lastChunk ? frame : undefined, name: name || previous?.name || '' });
    return problem;
  }

  /** What to call the artifact: its name as first given, else its id. */
  nameOf(key: string): string {
    return this.artifacts.get(key)?.name || key;
  }
}
