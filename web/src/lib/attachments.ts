/**
 * Whether an attachment's body may be shown in the page: text (and patches, JSON) as text, raster
 * images as an <img> from a blob: URL; anything else (SVG included, which can carry script) is
 * only downloaded.
 */
export function inlineKind(a: { content_type: string; is_patch: boolean }): 'text' | 'image' | null {
  const type = a.content_type.toLowerCase().split(';')[0]!.trim();
  if (a.is_patch || type.startsWith('text/') || type === 'application/json') return 'text';
  if (/^image\/(png|jpeg|gif|webp|bmp|avif)$/.test(type)) return 'image';
  return null;
}
