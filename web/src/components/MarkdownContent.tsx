import { useMemo, type CSSProperties } from 'react';
import { marked } from 'marked';
import { SanitizedHtml } from './SanitizedHtml';

interface Props {
  /** Markdown; HTML inside it passes through (and is sanitized with the rest). */
  source: string;
  style?: CSSProperties;
}

/** Administrator text (notice, about) written as Markdown or HTML, rendered and then sanitized. */
export function MarkdownContent({ source, style }: Props) {
  const html = useMemo(() => marked.parse(source, { async: false, gfm: true, breaks: true }), [source]);
  return <SanitizedHtml html={html} style={style} className="markdown-content" />;
}
