import type { UploadFile } from '../../src-shared/contract/upload-sender';

/**
 * A picked or dropped file as the upload sender reads it (the browser cannot hand main a path):
 * slice by slice, so a large file is never in memory whole.
 */
export function fileForUpload(file: File): UploadFile {
  return {
    name: file.name,
    size: file.size,
    read: async (start, end) => new Uint8Array(await file.slice(start, end).arrayBuffer()),
  };
}

/** Whether a key event comes from somewhere the user types (fields, Monaco). */
export function isEditableTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = (target as HTMLInputElement).type;
    return !['checkbox', 'radio', 'button', 'submit', 'range'].includes(type);
  }
  return target.closest('.monaco-editor') !== null;
}

/** Copies text to the clipboard; rejects with a readable message when the page may not. */
export async function copyText(text: string): Promise<void> {
  if (!navigator.clipboard) throw new Error('The clipboard is not available here; select and copy the text instead.');
  await navigator.clipboard.writeText(text);
}
