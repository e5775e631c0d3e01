/** Files chosen or dropped by the person, ready for POST /rest/bug/{id}/attachment. */

export function fileToBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });
}

export function base64ToBytes(data: string): Uint8Array<ArrayBuffer> {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A content type for a file the browser could not name, from its extension. */
export function guessContentType(file: File): string {
  if (file.type) return file.type;
  const name = file.name.toLowerCase();
  if (/\.(patch|diff)$/.test(name)) return 'text/plain';
  if (/\.(txt|log|md|csv)$/.test(name)) return 'text/plain';
  return 'application/octet-stream';
}

export function looksLikePatch(file: File): boolean {
  return /\.(patch|diff)$/i.test(file.name);
}
