/**
 * Every payload that crosses between main and the renderer, as a schema (checked at the
 * boundary) and as a type (`Infer<…>`). Large things travel on demand, by id: rows carry a
 * short preview, blocks a summary, and contents, raw bytes and frames are fetched when shown.
 * One file per domain (payloads/), each schema followed by its type; the commands that carry
 * them are declared by owner in host-, session- and workspace-contract.ts.
 */
export * from './payloads/common';
export * from './payloads/sources';
export * from './payloads/sessions';
export * from './payloads/contents';
export * from './payloads/proxy';
export * from './payloads/tools';
export * from './payloads/replay';
export * from './payloads/diff';
export * from './payloads/files';
export * from './payloads/workspace';
export * from './payloads/host';
export * from './payloads/pushed';
