import { linkify } from '../lib/linkify.ts';

/** Comment text with bug, attachment, comment and web links; everything else stays text. */
export function LinkedText({ text }: { text: string }) {
  return (
    <>
      {linkify(text).map((s, i) =>
        s.href ? (
          <a key={i} href={s.href} rel={s.href.startsWith('http') ? 'nofollow noopener noreferrer' : undefined}>
            {s.text}
          </a>
        ) : (
          s.text
        ),
      )}
    </>
  );
}
