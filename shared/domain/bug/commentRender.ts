import MarkdownIt from 'markdown-it';
import { FilterXSS } from 'xss';

/**
 * Comment text to HTML (POST /rest/bug/comment/render), the way Bugzilla shows comments:
 * Markdown (GitHub-flavoured: tables, strikethrough, bare links), and references to bugs,
 * comments and attachments turned into links.
 *
 * Safety does not rest on one layer. markdown-it runs with raw HTML off (any tag in the text is
 * shown as text) and refuses javascript:, vbscript: and data: links; its output then goes through
 * js-xss (the `xss` package, chosen over heavier sanitizers because it bundles small) with an
 * allow-list of the tags Markdown produces, of their harmless attributes and of the http, https
 * and mailto schemes. Whatever one layer misses, the other removes.
 */
export interface RenderOptions {
  /** The bug the text belongs to: "comment 3" then links into that bug. */
  bugId?: number;
  /** Bugzilla's urlbase parameter ('' keeps links relative). */
  urlBase?: string;
  /** The markdown_enabled parameter: off renders plain text (escaped, references still linked). */
  markdown?: boolean;
}

type Reference = { href: string; text: string };

/**
 * "bug 12", "bug #12", "Bug 12 comment 3", "comment 3", "comment #3", "attachment 5": the
 * references Bugzilla links. Whole words only, so "debug 12" or "recomment 3" stay text.
 */
const REFERENCE =
  /\b(?:(bug)\s*#?\s*(\d+)(?:\s*,?\s*comment\s*#?\s*(\d+))?|(comment)\s*#?\s*(\d+)|(attachment)\s*#?\s*(\d+))\b/gi;

function findReferences(
  text: string,
  options: RenderOptions,
): Array<{ start: number; end: number; reference: Reference }> {
  const base = options.urlBase ?? '';
  const found: Array<{ start: number; end: number; reference: Reference }> = [];
  for (const match of text.matchAll(REFERENCE)) {
    const [whole] = match;
    let href: string;
    if (match[1]) href = `${base}show_bug.cgi?id=${match[2]}${match[3] ? `#c${match[3]}` : ''}`;
    else if (match[4])
      href = options.bugId !== undefined ? `${base}show_bug.cgi?id=${options.bugId}#c${match[5]}` : `#c${match[5]}`;
    else href = `${base}attachment.cgi?id=${match[7]}`;
    found.push({ start: match.index, end: match.index + whole.length, reference: { href, text: whole } });
  }
  return found;
}

/** A markdown-it rule that links references in text outside links and code. */
function referenceLinks(md: MarkdownIt, options: RenderOptions): void {
  md.core.ruler.push('tracker_references', (state) => {
    for (const block of state.tokens) {
      if (block.type !== 'inline' || !block.children) continue;
      const children: typeof block.children = [];
      let insideLink = 0;
      for (const token of block.children) {
        if (token.type === 'link_open') insideLink++;
        if (token.type === 'link_close') insideLink--;
        if (token.type !== 'text' || insideLink > 0) {
          children.push(token);
          continue;
        }
        let position = 0;
        for (const { start, end, reference } of findReferences(token.content, options)) {
          if (start > position)
            children.push(
              Object.assign(new state.Token('text', '', 0), { content: token.content.slice(position, start) }),
            );
          const open = new state.Token('link_open', 'a', 1);
          open.attrs = [
            ['href', reference.href],
            ['class', 'bz_ref'],
          ];
          children.push(
            open,
            Object.assign(new state.Token('text', '', 0), { content: reference.text }),
            new state.Token('link_close', 'a', -1),
          );
          position = end;
        }
        if (position === 0) children.push(token);
        else if (position < token.content.length)
          children.push(Object.assign(new state.Token('text', '', 0), { content: token.content.slice(position) }));
      }
      block.children = children;
    }
  });
}

const REL = 'nofollow noopener noreferrer';

/** The tags Markdown produces, each with the only attributes it may keep. */
const ALLOWED: Record<string, string[]> = {
  p: [],
  br: [],
  hr: [],
  h1: [],
  h2: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  blockquote: [],
  em: [],
  strong: [],
  del: [],
  s: [],
  ul: [],
  ol: ['start'],
  li: [],
  table: [],
  thead: [],
  tbody: [],
  tr: [],
  th: [],
  td: [],
  pre: ['class'],
  code: ['class'],
  a: ['href', 'title', 'class', 'rel'],
  img: ['src', 'alt', 'title'],
};

const CLASSES: Record<string, RegExp> = { a: /^bz_ref$/, code: /^language-[\w-]+$/, pre: /^bz_comment_text$/ };

/** http(s) and mailto links, fragments and relative addresses; nothing protocol-relative. */
function safeAddress(tag: string, value: string): boolean {
  const address = value.replace(/[\u0000-\u0020\u007f]/g, '').toLowerCase();
  if (address.startsWith('//') || address.startsWith('\\')) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(address)?.[1];
  if (scheme === undefined) return !address.includes(':') || /^[^:]*[/?#]/.test(address);
  return tag === 'img' ? ['http', 'https'].includes(scheme) : ['http', 'https', 'mailto'].includes(scheme);
}

const sanitizer = new FilterXSS({
  whiteList: ALLOWED,
  // A tag outside the list is shown as text, and script or style bodies are dropped whole.
  stripIgnoreTagBody: ['script', 'style'],
  allowCommentTag: false,
  css: false,
  safeAttrValue(tag, name, value, cssFilter) {
    void cssFilter;
    if (name === 'href' || name === 'src') return safeAddress(tag, value) ? value.replace(/"/g, '&quot;') : '';
    if (name === 'class') return CLASSES[tag]?.test(value) ? value : '';
    if (name === 'rel') return value === REL ? value : '';
    if (name === 'start') return /^\d{1,9}$/.test(value) ? value : '';
    return value.replace(/[<>"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char]!);
  },
});

/** The second layer alone (exported so tests can feed it raw HTML that Markdown would never produce). */
export const sanitize = (html: string): string => sanitizer.process(html);

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

function renderPlain(text: string, options: RenderOptions): string {
  let html = '';
  let position = 0;
  for (const { start, end, reference } of findReferences(text, options)) {
    html +=
      escapeHtml(text.slice(position, start)) +
      `<a href="${escapeHtml(reference.href)}" class="bz_ref" rel="${REL}">${escapeHtml(reference.text)}</a>`;
    position = end;
  }
  return `<pre class="bz_comment_text">${html}${escapeHtml(text.slice(position))}</pre>`;
}

export function renderComment(text: string, options: RenderOptions = {}): string {
  if (options.markdown === false) return sanitize(renderPlain(text, options));
  const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });
  referenceLinks(md, options);
  // Every link leaves with rel="nofollow noopener noreferrer": no referrer, no window.opener.
  md.renderer.rules.link_open = (tokens, index, renderOptions, _env, self) => {
    tokens[index].attrSet('rel', REL);
    return self.renderToken(tokens, index, renderOptions);
  };
  return sanitize(md.render(text));
}
