/**
 * Plain comment text to text and link segments, as Bugzilla links "bug 12", "attachment 3",
 * "comment 4" and http(s) addresses. The page renders segments as text nodes and <a> elements:
 * no HTML is ever built from the text.
 */
export type Segment = { text: string; href?: string };

const PATTERN =
  /\b(https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]])|\b(bug)\s*#?\s*(\d+)\b|\b(attachment)\s*#?\s*(\d+)\b|\b(comment)\s*#?\s*(\d+)\b/gi;

export function linkify(text: string): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const m of text.matchAll(PATTERN)) {
    const index = m.index ?? 0;
    if (index > last) out.push({ text: text.slice(last, index) });
    let href: string;
    if (m[1]) href = m[1];
    else if (m[2]) href = `/show_bug.cgi?id=${m[3]}`;
    else if (m[4]) href = `/attachment.cgi?id=${m[5]}&action=edit`;
    else href = `#c${m[7]}`;
    out.push({ text: m[0], href });
    last = index + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}
