import { memo, useMemo } from 'react';
import { Marked } from 'marked';
import { markedHighlight } from 'marked-highlight';
import hljs from 'highlight.js/lib/common';
import 'highlight.js/styles/github-dark.css';
import { SanitizedHtml } from '../../components/SanitizedHtml';

/*
 * A model's reply as Markdown, sanitized like every HTML the console shows. Code blocks are highlighted once the reply
 * is complete; while it streams, the plain renderer keeps each repaint cheap. highlight.js lives here, in the
 * playground's own chunk, not in the shared Markdown component every page loads.
 */

const options = { gfm: true, breaks: true, async: false } as const;

const plain = new Marked(options);

const highlighted = new Marked(
  markedHighlight({
    emptyLangClass: 'hljs',
    langPrefix: 'hljs language-',
    highlight(code, lang) {
      const language = hljs.getLanguage(lang) ? lang : 'plaintext';
      return hljs.highlight(code, { language }).value;
    },
  }),
  options,
);

interface Props {
  source: string;
  /** Highlight code blocks (a finished reply). */
  highlight: boolean;
}

export const ReplyMarkdown = memo(function ReplyMarkdown({ source, highlight }: Props) {
  const html = useMemo(() => (highlight ? highlighted : plain).parse(source) as string, [source, highlight]);
  return <SanitizedHtml html={html} className="markdown-content playground-reply" />;
});
