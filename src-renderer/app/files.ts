import type { UploadFile } from '../../src-shared/contract/upload-sender';

/**
 * A picked or dropped file as the upload sender reads it (the browser cannot hand main a path):
 * slice by slice, so a large file is never in memory whole; each slice is encoded by the
 * browser's FileReader, not by script on the page's thread, which draws the rows meanwhile.
 */
export function fileForUpload(file: File): UploadFile {
  return {
    name: file.name,
    size: file.size,
    readBase64: (start, end) =>
      new Promise((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => {
          const url = typeof reader.result === 'string' ? reader.result : '';
          resolve(url.slice(url.indexOf(',') + 1));
        };
        reader.onerror = () => reject(reader.error ?? new Error(`Could not read ${file.name}`));
        reader.readAsDataURL(file.slice(start, end));
      }),
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
