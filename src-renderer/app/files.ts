import type { OpenUploadRequest } from '../../src-shared/contract';

/** The largest file the browser host accepts as an upload (base64 grows it by a third). */
export const MAX_UPLOAD_BYTES = 72 * 1024 * 1024;

/** Reads a picked or dropped file for `openUpload` (the browser cannot hand main a path). */
export async function fileToUpload(file: File): Promise<OpenUploadRequest> {
  if (file.size > MAX_UPLOAD_BYTES) {
    throw new Error(
      `${file.name} is ${Math.round(file.size / 1e6)} MB; the browser host takes uploads up to ${MAX_UPLOAD_BYTES / 1024 / 1024} MB. ` +
        'Open it in the desktop app, or with `stream-inspector serve FILE` and connect to that.',
    );
  }
  const base64 = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = typeof reader.result === 'string' ? reader.result : '';
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error(`Could not read ${file.name}`));
    reader.readAsDataURL(file);
  });
  return { name: file.name, base64 };
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
